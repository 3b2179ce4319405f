/**
 * An immutable map from string keys, changed by making a new map that shares all but the
 * changed path with the old one (a hash array mapped trie): `set` and `delete` copy at most
 * one 32-slot branch per level — about three at 10,000 entries — never the whole map. A
 * change that changes nothing returns the map itself, so callers tell "no change" by
 * identity, and two versions of a map are compared in O(what differs) ({@link diffMaps}).
 *
 * Why not a plain record copied on write: the browser's ledger holds every node of a
 * session, and copying a 10,000-entry record on each new node costs milliseconds and
 * garbage on the main thread while a reply streams ([R289]).
 *
 * A map given a {@link KeyOf} holds a value that carries its own key (a node and its id)
 * in the trie itself, bare, without a leaf around it: 24 bytes less per entry (2.4 MB for
 * a 100,000-node session's page); its hash is computed again from the key when needed.
 */

const BITS = 5;
const MASK = (1 << BITS) - 1;

/**
 * The key a value carries, or undefined for a value that carries none. Declared as a
 * method, whose parameter is bivariant: a map keeps the variance of its values (a map of
 * nodes is a map of readonly nodes) though it holds a function of them.
 */
export type KeyOf<V> = { read(value: V): string | undefined }["read"];

class Leaf<V> {
  constructor(
    readonly key: string,
    readonly hash: number,
    readonly value: V,
  ) {}
}

/** Keys whose hashes are equal. */
class Collision<V> {
  constructor(
    readonly hash: number,
    readonly leaves: readonly Leaf<V>[],
  ) {}
}

/** Up to 32 slots, present where `bitmap` has a bit (slots stored densely). */
class Branch<V> {
  constructor(
    readonly bitmap: number,
    readonly slots: readonly Slot<V>[],
  ) {}
}

/** A value held bare: it carries its key ({@link KeyOf}). Never a leaf, collision or branch. */
type Bare<V> = { readonly bare: V };

/**
 * One entry: a leaf, or a bare value. (`Bare` is a compile-time wrapper only: at run time
 * the slot is the value itself, told apart from the trie's classes by `instanceof`.)
 */
type Entry<V> = Leaf<V> | Bare<V>;
type Slot<V> = Entry<V> | Collision<V> | Branch<V>;

const bare = <V>(value: V): Bare<V> => value as unknown as Bare<V>;
const unbare = <V>(entry: Bare<V>): V => entry as unknown as V;
const isEntry = <V>(slot: Slot<V>): slot is Entry<V> =>
  !(slot instanceof Branch) && !(slot instanceof Collision);

/**
 * FNV-1a over the key's UTF-16 code units, kept to 30 bits: a small integer, which V8
 * holds in the leaf itself. A 32-bit hash of 2^30 or more took a 12-byte box of its own
 * (1.5 MB for the leaves of a 100,000-node session's store).
 */
export function hashKey(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h & 0x3fffffff;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

const bitAt = (hash: number, shift: number) => 1 << ((hash >>> shift) & MASK);
const indexOf = (bitmap: number, bit: number) => popcount(bitmap & (bit - 1));

// The copies are made at their exact length: an array grown by `push` or `splice` keeps
// room for 17 entries or more, and a 100,000-entry map holds tens of thousands of branches
// for good (1.4 MB of empty room at 100,000 entries, measured in Chromium). (`with` and
// `toSpliced` would do, but not in every browser Next.js targets: Firefox 111–114.)

function replaced<T>(list: readonly T[], at: number, item: T): T[] {
  const out = list.slice();
  out[at] = item;
  return out;
}

/** `list` with `item` at `at`, as a new array of exactly that length. */
export function inserted<T>(list: readonly T[], at: number, item: T): T[] {
  const out = new Array<T>(list.length + 1);
  for (let i = 0; i < at; i++) out[i] = list[i] as T;
  out[at] = item;
  for (let i = at; i < list.length; i++) out[i + 1] = list[i] as T;
  return out;
}

function removedAt<T>(list: readonly T[], at: number): T[] {
  const out = new Array<T>(list.length - 1);
  for (let i = 0; i < at; i++) out[i] = list[i] as T;
  for (let i = at + 1; i < list.length; i++) out[i - 1] = list[i] as T;
  return out;
}

/** What the trie's functions need to read a bare value's key. */
type Keys<V> = KeyOf<V> | undefined;

function keyAt<V>(entry: Entry<V>, keyOf: Keys<V>): string {
  if (entry instanceof Leaf) return entry.key;
  const key = keyOf?.(unbare(entry));
  if (key === undefined) throw new Error("persistent map: a bare value without its key");
  return key;
}

const valueAt = <V>(entry: Entry<V>): V => (entry instanceof Leaf ? entry.value : unbare(entry));

const hashAt = <V>(slot: Entry<V> | Collision<V>, keyOf: Keys<V>): number =>
  slot instanceof Leaf || slot instanceof Collision ? slot.hash : hashKey(keyAt(slot, keyOf));

const asLeaf = <V>(entry: Entry<V>, keyOf: Keys<V>): Leaf<V> =>
  entry instanceof Leaf
    ? entry
    : new Leaf(keyAt(entry, keyOf), hashAt(entry, keyOf), unbare(entry));

/** The entry of `key` and `value`: bare when the value carries that key, else a leaf. */
function entryOf<V>(key: string, hash: number, value: V, keyOf: Keys<V>): Entry<V> {
  return keyOf !== undefined && keyOf(value) === key ? bare(value) : new Leaf(key, hash, value);
}

/** A slot holding both `a` (an entry or collision) and `b` (an entry), whose keys differ. */
function pair<V>(
  a: Entry<V> | Collision<V>,
  b: Entry<V>,
  hb: number,
  shift: number,
  keyOf: Keys<V>,
): Slot<V> {
  const ha = hashAt(a, keyOf);
  if (ha === hb) {
    const leaf = asLeaf(b, keyOf);
    return new Collision(
      hb,
      a instanceof Collision ? [...a.leaves, leaf] : [asLeaf(a, keyOf), leaf],
    );
  }
  const ba = bitAt(ha, shift);
  const bb = bitAt(hb, shift);
  if (ba === bb) return new Branch(ba, [pair(a, b, hb, shift + BITS, keyOf)]);
  // Slots are in bit order; `>>> 0` so that bit 31 (negative as an int) sorts last.
  return new Branch(ba | bb, ba >>> 0 < bb >>> 0 ? [a, b] : [b, a]);
}

/** `slot` with `key` set to `value`; `slot` itself when it already holds that value. */
function setIn<V>(
  slot: Slot<V>,
  key: string,
  hash: number,
  value: V,
  shift: number,
  grew: { added: boolean },
  keyOf: Keys<V>,
): Slot<V> {
  if (isEntry(slot)) {
    if (keyAt(slot, keyOf) !== key) {
      grew.added = true;
      return pair(slot, entryOf(key, hash, value, keyOf), hash, shift, keyOf);
    }
    return valueAt(slot) === value ? slot : entryOf(key, hash, value, keyOf);
  }
  if (slot instanceof Collision) {
    if (slot.hash !== hash) {
      grew.added = true;
      return pair(slot, entryOf(key, hash, value, keyOf), hash, shift, keyOf);
    }
    const at = slot.leaves.findIndex((l) => l.key === key);
    if (at < 0) {
      grew.added = true;
      return new Collision(slot.hash, [...slot.leaves, new Leaf(key, hash, value)]);
    }
    if (slot.leaves[at]?.value === value) return slot;
    return new Collision(slot.hash, replaced(slot.leaves, at, new Leaf(key, hash, value)));
  }
  const bit = bitAt(hash, shift);
  const at = indexOf(slot.bitmap, bit);
  if ((slot.bitmap & bit) === 0) {
    grew.added = true;
    return new Branch(
      slot.bitmap | bit,
      inserted(slot.slots, at, entryOf(key, hash, value, keyOf)),
    );
  }
  const child = slot.slots[at] as Slot<V>;
  const next = setIn(child, key, hash, value, shift + BITS, grew, keyOf);
  return next === child ? slot : new Branch(slot.bitmap, replaced(slot.slots, at, next));
}

/** `slot` without `key`: itself when absent, undefined when nothing is left. */
function deleteIn<V>(
  slot: Slot<V>,
  key: string,
  hash: number,
  shift: number,
  keyOf: Keys<V>,
): Slot<V> | undefined {
  if (isEntry(slot)) return keyAt(slot, keyOf) === key ? undefined : slot;
  if (slot instanceof Collision) {
    if (slot.hash !== hash) return slot;
    const rest = slot.leaves.filter((l) => l.key !== key);
    if (rest.length === slot.leaves.length) return slot;
    const only = rest[0] as Leaf<V>;
    return rest.length === 1
      ? entryOf(only.key, only.hash, only.value, keyOf)
      : new Collision(hash, rest);
  }
  const bit = bitAt(hash, shift);
  if ((slot.bitmap & bit) === 0) return slot;
  const at = indexOf(slot.bitmap, bit);
  const child = slot.slots[at] as Slot<V>;
  const next = deleteIn(child, key, hash, shift + BITS, keyOf);
  if (next === child) return slot;
  if (next === undefined) {
    if (slot.slots.length === 1) return undefined;
    const rest = removedAt(slot.slots, at);
    // A lone entry needs no branch of its own: it moves up (lookups follow the hash anyway).
    const only = rest[0];
    if (rest.length === 1 && only !== undefined && !(only instanceof Branch)) return only;
    return new Branch(slot.bitmap & ~bit, rest);
  }
  if (slot.slots.length === 1 && !(next instanceof Branch)) return next;
  return new Branch(slot.bitmap, replaced(slot.slots, at, next));
}

function forEachIn<V>(slot: Slot<V>, fn: (value: V, key: string) => void, keyOf: Keys<V>): void {
  if (slot instanceof Branch) for (const s of slot.slots) forEachIn(s, fn, keyOf);
  else if (slot instanceof Collision) for (const l of slot.leaves) fn(l.value, l.key);
  else fn(valueAt(slot), keyAt(slot, keyOf));
}

/**
 * The slot holding `entries` (distinct keys, in the order they were first set, with their
 * `hashes`) at `shift`: an entry alone, a collision when every hash is equal, else a
 * branch with one slot per `BITS` of hash in bit order — what {@link setIn} makes of them
 * one by one.
 */
function built<V>(
  entries: readonly Entry<V>[],
  hashes: readonly number[],
  shift: number,
  keyOf: Keys<V>,
): Slot<V> {
  const first = entries[0] as Entry<V>;
  if (entries.length === 1) return first;
  const h0 = hashes[0] as number;
  if (hashes.every((h) => h === h0)) {
    return new Collision(
      h0,
      entries.map((e) => asLeaf(e, keyOf)),
    );
  }
  const groups: { entries: Entry<V>[]; hashes: number[] }[] = [];
  let bitmap = 0;
  entries.forEach((entry, i) => {
    const hash = hashes[i] as number;
    const at = (hash >>> shift) & MASK;
    const group = (groups[at] ??= { entries: [], hashes: [] });
    group.entries.push(entry);
    group.hashes.push(hash);
    bitmap |= 1 << at;
  });
  const slots = new Array<Slot<V>>(popcount(bitmap));
  let at = 0;
  for (const group of groups) {
    if (group !== undefined) slots[at++] = built(group.entries, group.hashes, shift + BITS, keyOf);
  }
  return new Branch(bitmap, slots);
}

/** An immutable string-keyed map; see the module's comment. */
export class PersistentMap<V> {
  private static readonly EMPTY = new PersistentMap<never>(undefined, 0, undefined);

  private constructor(
    private readonly root: Slot<V> | undefined,
    /** The number of entries. */
    readonly size: number,
    /** Reads the key a value carries: such values are held bare. */
    private readonly keyOf: Keys<V>,
  ) {}

  /** The empty map; with `keyOf`, values carrying their own key are held bare. */
  static empty<V>(keyOf?: KeyOf<V>): PersistentMap<V> {
    return keyOf === undefined ? PersistentMap.EMPTY : new PersistentMap<V>(undefined, 0, keyOf);
  }

  /**
   * The map of `entries` (a later entry of a key wins), built in one pass: the same trie
   * that setting them one by one makes, without copying a path per entry — a page's first
   * 100,000-node ledger is built in a fraction of the time and garbage.
   */
  static from<V>(entries: Iterable<readonly [string, V]>, keyOf?: KeyOf<V>): PersistentMap<V> {
    const byKey = new Map<string, V>();
    for (const [key, value] of entries) byKey.set(key, value);
    if (byKey.size === 0) return PersistentMap.empty(keyOf);
    const held: Entry<V>[] = [];
    const hashes: number[] = [];
    for (const [key, value] of byKey) {
      const hash = hashKey(key);
      held.push(entryOf(key, hash, value, keyOf));
      hashes.push(hash);
    }
    return new PersistentMap(built(held, hashes, 0, keyOf), held.length, keyOf);
  }

  get(key: string): V | undefined {
    let slot = this.root;
    const hash = hashKey(key);
    let shift = 0;
    while (slot !== undefined) {
      if (slot instanceof Branch) {
        const bit = bitAt(hash, shift);
        if ((slot.bitmap & bit) === 0) return undefined;
        slot = slot.slots[indexOf(slot.bitmap, bit)];
        shift += BITS;
      } else if (slot instanceof Collision) {
        return slot.leaves.find((l) => l.key === key)?.value;
      } else {
        return keyAt(slot, this.keyOf) === key ? valueAt(slot) : undefined;
      }
    }
    return undefined;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /** This map with `key` set to `value`; this map itself when it already holds that value. */
  set(key: string, value: V): PersistentMap<V> {
    const hash = hashKey(key);
    if (this.root === undefined) {
      return new PersistentMap(entryOf(key, hash, value, this.keyOf), 1, this.keyOf);
    }
    const grew = { added: false };
    const root = setIn(this.root, key, hash, value, 0, grew, this.keyOf);
    return root === this.root
      ? this
      : new PersistentMap(root, this.size + (grew.added ? 1 : 0), this.keyOf);
  }

  /** This map without `key`; this map itself when it has no such key. */
  delete(key: string): PersistentMap<V> {
    if (this.root === undefined) return this;
    const root = deleteIn(this.root, key, hashKey(key), 0, this.keyOf);
    if (root === this.root) return this;
    return root === undefined
      ? PersistentMap.empty(this.keyOf)
      : new PersistentMap(root, this.size - 1, this.keyOf);
  }

  /** Every entry, in no particular order. */
  forEach(fn: (value: V, key: string) => void): void {
    if (this.root !== undefined) forEachIn(this.root, fn, this.keyOf);
  }

  values(): V[] {
    const out: V[] = [];
    this.forEach((v) => out.push(v));
    return out;
  }

  keys(): string[] {
    const out: string[] = [];
    this.forEach((_, k) => out.push(k));
    return out;
  }

  /** @internal for {@link diffMaps}. */
  static rootOf<V>(map: PersistentMap<V>): Slot<V> | undefined {
    return map.root;
  }

  /** @internal for {@link diffMaps}. */
  static keyOfOf<V>(map: PersistentMap<V>): Keys<V> {
    return map.keyOf;
  }
}

function entriesOf<V>(slot: Slot<V> | undefined, keyOf: Keys<V>): Map<string, V> {
  const out = new Map<string, V>();
  if (slot !== undefined) forEachIn(slot, (v, k) => out.set(k, v), keyOf);
  return out;
}

function diffSlots<V>(
  a: Slot<V> | undefined,
  b: Slot<V> | undefined,
  changed: (key: string, value: V) => void,
  removed: (key: string) => void,
  keyOf: Keys<V>,
): number {
  if (a === b) return 1;
  if (a instanceof Branch && b instanceof Branch) {
    let visited = 1;
    for (let bits = a.bitmap | b.bitmap; bits !== 0; bits &= bits - 1) {
      const bit = bits & -bits;
      const sa = a.bitmap & bit ? a.slots[indexOf(a.bitmap, bit)] : undefined;
      const sb = b.bitmap & bit ? b.slots[indexOf(b.bitmap, bit)] : undefined;
      visited += diffSlots(sa, sb, changed, removed, keyOf);
    }
    return visited;
  }
  // Shapes differ (a leaf became a branch, or back): compare the few entries under them.
  const before = entriesOf(a, keyOf);
  const after = entriesOf(b, keyOf);
  after.forEach((v, k) => {
    if (before.get(k) !== v) changed(k, v);
    before.delete(k);
  });
  before.forEach((_, k) => removed(k));
  return 1 + before.size + after.size;
}

/**
 * What differs from `before` to `after`: `changed` for each key added or whose value is
 * another object, `removed` for each key gone. Shared parts are skipped by identity, so
 * the cost follows the change, not the size of the maps. Returns how many slots it looked
 * at (that cost, for tests).
 */
export function diffMaps<V>(
  before: PersistentMap<V>,
  after: PersistentMap<V>,
  changed: (key: string, value: V) => void,
  removed: (key: string) => void,
): number {
  // Maps of one ledger share their `keyOf`; either reads a bare value's key.
  const keyOf = PersistentMap.keyOfOf(after) ?? PersistentMap.keyOfOf(before);
  return diffSlots(
    PersistentMap.rootOf(before),
    PersistentMap.rootOf(after),
    changed,
    removed,
    keyOf,
  );
}
