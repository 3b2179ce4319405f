import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { diffMaps, hashKey, PersistentMap } from "@/components/session/persistent-map";

/** A deterministic sequence of operations against a Map, the reference. */
function* operations(count: number, keys: number, seed = 7): Generator<[string, number | null]> {
  let x = seed;
  for (let i = 0; i < count; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    const key = `n${x % keys}`;
    // One operation in four is a delete.
    yield [key, (x >>> 8) % 4 === 0 ? null : i];
  }
}

function diffOf<V>(a: PersistentMap<V>, b: PersistentMap<V>) {
  const changed: [string, V][] = [];
  const removed: string[] = [];
  diffMaps(
    a,
    b,
    (k, v) => changed.push([k, v]),
    (k) => removed.push(k),
  );
  return { changed: changed.sort(), removed: removed.sort() };
}

describe("the persistent map the browser's ledger is held in", () => {
  it("[R289] answers like a Map through thousands of sets and deletes; older versions stay as they were", () => {
    const reference = new Map<string, number>();
    let map = PersistentMap.empty<number>();
    const snapshots: [PersistentMap<number>, Map<string, number>][] = [];
    let i = 0;
    for (const [key, value] of operations(20_000, 3_000)) {
      if (value === null) {
        reference.delete(key);
        map = map.delete(key);
      } else {
        reference.set(key, value);
        map = map.set(key, value);
      }
      if (++i % 2_000 === 0) snapshots.push([map, new Map(reference)]);
    }
    for (const [held, expected] of snapshots) {
      expect(held.size).toBe(expected.size);
      for (let k = 0; k < 3_000; k++) expect(held.get(`n${k}`)).toBe(expected.get(`n${k}`));
      expect(held.keys().sort()).toEqual([...expected.keys()].sort());
    }
  });

  it("[R289] a change that changes nothing returns the map itself", () => {
    const map = PersistentMap.from([
      ["a", 1],
      ["b", 2],
    ]);
    expect(map.set("a", 1)).toBe(map);
    expect(map.delete("zz")).toBe(map);
    expect(map.set("a", 3)).not.toBe(map);
    expect(map.get("a")).toBe(1);
  });

  it("[R289] keys whose hashes collide are kept apart", () => {
    // Pairs of ids with equal FNV-1a hashes (found by a search over generated ids).
    const pairs = [
      ["id-66pkag", "id-1mq5ayc"],
      ["id-1jsjbou", "id-cbd68s"],
      ["id-w1io0u", "id-1kgp79t"],
    ] as const;
    for (const [a, b] of pairs) expect(hashKey(a)).toBe(hashKey(b));
    let map = PersistentMap.from(Array.from({ length: 2_000 }, (_, k) => [`n${k}`, k] as const));
    for (const [a, b] of pairs) map = map.set(a, 1).set(b, 2);
    for (const [a, b] of pairs) expect([map.get(a), map.get(b)]).toEqual([1, 2]);
    expect(map.size).toBe(2_006);
    const [first, second] = pairs[0];
    map = map.delete(first);
    expect([map.get(first), map.get(second), map.size]).toEqual([undefined, 2, 2_005]);
    expect(diffOf(map.set(first, 3), map)).toEqual({ changed: [], removed: [first] });
  });

  it("[R289] built at once from entries, it is the very trie that setting them one by one makes", () => {
    // Keys from a small pool (repeats: a later value wins), with two colliding pairs.
    const key = fc.oneof(
      fc.constantFrom("id-66pkag", "id-1mq5ayc", "id-1jsjbou", "id-cbd68s"),
      fc.integer({ min: 0, max: 5_000 }).map((k) => `n${k}`),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(key, fc.integer()), { maxLength: 3_000 }), (entries) => {
        let oneByOne = PersistentMap.empty<number>();
        for (const [k, v] of entries) oneByOne = oneByOne.set(k, v);
        const atOnce = PersistentMap.from(entries);
        expect(atOnce.size).toBe(oneByOne.size);
        expect(PersistentMap.rootOf(atOnce)).toStrictEqual(PersistentMap.rootOf(oneByOne));
        // And it changes like any other version.
        expect(diffOf(oneByOne, atOnce)).toEqual({ changed: [], removed: [] });
      }),
      { numRuns: 60 },
    );
  });

  it("[R289] the diff of two versions names exactly what changed, walking only what differs", () => {
    let before = PersistentMap.empty<object>();
    for (let k = 0; k < 10_000; k++) before = before.set(`n${k}`, { k });
    const fresh = { k: -1 };
    const after = before.set("n5", fresh).set("new", fresh).delete("n9000");
    expect(diffOf(before, after)).toEqual({
      changed: [
        ["n5", fresh],
        ["new", fresh],
      ].sort(),
      removed: ["n9000"],
    });
    expect(diffOf(after, after)).toEqual({ changed: [], removed: [] });
    expect(diffOf(PersistentMap.empty(), after).changed).toHaveLength(10_000);
  });

  it("[R289] a map of values that carry their keys holds them bare, and answers like any other", () => {
    type Item = { readonly id: string; readonly n: number };
    const keyOf = (item: Item) => item.id;
    const key = fc.oneof(
      fc.constantFrom("id-66pkag", "id-1mq5ayc", "id-1jsjbou", "id-cbd68s"),
      fc.integer({ min: 0, max: 3_000 }).map((k) => `n${k}`),
    );
    // Some values are stored under another key than their own: those keep a leaf.
    const op = fc.tuple(key, fc.integer(), fc.boolean(), fc.boolean());
    fc.assert(
      fc.property(fc.array(op, { maxLength: 2_000 }), (ops) => {
        const reference = new Map<string, Item>();
        let keyed = PersistentMap.empty<Item>(keyOf);
        let plain = PersistentMap.empty<Item>();
        for (const [k, n, own, del] of ops) {
          if (del) {
            reference.delete(k);
            keyed = keyed.delete(k);
            plain = plain.delete(k);
          } else {
            const item = { id: own ? k : `other-${k}`, n };
            reference.set(k, item);
            keyed = keyed.set(k, item);
            plain = plain.set(k, item);
          }
        }
        expect(keyed.size).toBe(reference.size);
        for (const [k, v] of reference) expect(keyed.get(k)).toBe(v);
        expect(keyed.keys().sort()).toEqual([...reference.keys()].sort());
        // Built at once, it is the same trie; and it diffs like the plain map.
        const atOnce = PersistentMap.from([...reference], keyOf);
        expect(PersistentMap.rootOf(atOnce)).toStrictEqual(PersistentMap.rootOf(keyed));
        expect(diffOf(PersistentMap.empty(keyOf), keyed)).toEqual(
          diffOf(PersistentMap.empty(), plain),
        );
      }),
      { numRuns: 40 },
    );
    // Held bare: a one-entry map's root is the value itself; a value under another key is not.
    const item = { id: "a", n: 1 };
    expect(PersistentMap.rootOf(PersistentMap.empty(keyOf).set("a", item))).toBe(item);
    expect(PersistentMap.rootOf(PersistentMap.empty(keyOf).set("b", item))).not.toBe(item);
    expect(PersistentMap.rootOf(PersistentMap.empty<Item>().set("a", item))).not.toBe(item);
  });
});
