import fc from "fast-check";
import { beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "./support/databases";
import { useApp, type Routes } from "./support/routes";

/**
 * [R88] No imported session can make a route answer 500: random mutations of a real exported
 * ledger are imported, and every import that is accepted is then read, rendered, drawn,
 * exported, continued and compacted — each answer a 2xx or a clear 4xx.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface FileNode {
  id: string;
  predecessorId: string | null;
  kind: string;
  status: string;
  callerId: string | null;
  metadata: Record<string, Json>;
  reads: string[];
  [key: string]: Json | undefined;
}
interface LedgerJson {
  session: { headId: string | null; meta: Record<string, Json>; [key: string]: Json };
  nodes: FileNode[];
  [key: string]: Json | unknown;
}

const RUNS = { sqlite: 500, postgresql: 120 } as const;

describeEachDatabase("[R88] hostile imports", (kind) => {
  let routes: Routes;
  let base: LedgerJson;
  useApp(kind, { SPINDLE_AUTH: "off" }, (app) => ({ routes } = app));

  beforeAll(async () => {
    // A real ledger with a branch, a summary, a tool call and its result.
    const id = (await routes.call("POST", "/api/sessions", { title: "base" })).json["id"] as string;
    await routes.call("PATCH", `/api/sessions/${id}`, { settings: { keepRecentTokens: 1 } });
    for (const content of ["one", "two", "three"]) {
      await routes.call("POST", `/api/sessions/${id}/turns`, { content, stream: false });
    }
    const head = (await routes.call("GET", `/api/sessions/${id}`)).json["headId"] as string;
    await routes.call("POST", `/api/sessions/${id}/turns`, {
      mode: "retry",
      targetId: head,
      stream: false,
    });
    expect((await routes.call("POST", `/api/sessions/${id}/compact`)).status).toBe(200);
    await routes.call("POST", `/api/sessions/${id}/tasks`, { prompt: "look it up" });
    base = JSON.parse(
      (await routes.call("GET", `/api/sessions/${id}/export?format=json`)).text,
    ) as LedgerJson;
    expect(base.nodes.some((n) => n.kind === "summary")).toBe(true);
  });

  /** Values a hostile file might put anywhere. */
  const junk = (ids: string[]): fc.Arbitrary<Json> =>
    fc.oneof(
      fc.constantFrom(...ids),
      fc.constant(null),
      fc.integer({ min: -5, max: 1_000_000_000 }),
      fc.constantFrom("", "\u0000", "x".repeat(300), "rolling-single", "stacked", "summary"),
      fc.array(fc.oneof(fc.constantFrom(...ids), fc.constant(null), fc.integer()), {
        maxLength: 5,
      }),
      fc.constant({}),
      fc.constant({ id: 1, name: null }),
    );

  type Mutation = (file: LedgerJson) => void;

  const KINDS = ["root", "user", "assistant", "tool", "summary", "notice"];
  const STATUSES = ["complete", "streaming", "interrupted", "error"];

  /** Values of the right type and range that still may not fit together. */
  const plausible = (ids: string[]) => ({
    kind: fc.constantFrom(...KINDS),
    status: fc.constantFrom(...STATUSES),
    predecessorId: fc.oneof(fc.constantFrom(...ids), fc.constant(null)),
    callerId: fc.oneof(fc.constantFrom(...ids), fc.constant(null)),
    content: fc.oneof(fc.string({ maxLength: 40 }), fc.constant("x".repeat(20_000))),
    reads: fc.subarray(ids),
    seq: fc.nat({ max: 50 }),
    tokenCount: fc.integer({ min: -1, max: 10_000_000 }),
  });

  const mutation = (ids: string[]): fc.Arbitrary<Mutation> => {
    const node = fc.nat({ max: 10_000 });
    const pick = (f: LedgerJson, i: number) => f.nodes[i % f.nodes.length] as FileNode;
    const fields = plausible(ids);
    const field = fc.oneof(
      ...Object.entries(fields).map(([name, arb]) =>
        fc.tuple(node, arb as fc.Arbitrary<Json>).map(([i, v]): Mutation => (f) => {
          (pick(f, i) as Record<string, unknown>)[name] = v;
        }),
      ),
    );
    const metaValue = fc.oneof(
      fc.record({ key: fc.constant("covers_ids"), value: fc.subarray(ids, { maxLength: 8 }) }),
      fc.record({
        key: fc.constant("tool_calls"),
        value: fc.array(
          fc.record({
            id: fc.constantFrom("call_1", "call_2", "c"),
            name: fc.constantFrom("task", "send_message", "nope"),
            arguments: fc.constantFrom("{}", '{"prompt":"p"}', "not json"),
          }),
          { maxLength: 2 },
        ),
      }),
      fc.record({ key: fc.constant("tool_call_id"), value: fc.constantFrom("call_1", "c", "zz") }),
    );
    const settingsValue = fc.record(
      {
        contextWindow: fc.integer({ min: 256, max: 2_000_000 }),
        keepRecentTokens: fc.integer({ min: 0, max: 200_000 }),
        autoCompact: fc.boolean(),
        model: fc.constantFrom("gpt-4o-mini", "unknown-model"),
      },
      { requiredKeys: [] },
    );
    const metaKeys = fc.constantFrom("covers_ids", "tool_calls", "tool_call_id", "error", "usage");
    return fc.oneof(
      { weight: 4, arbitrary: field },
      {
        weight: 3,
        arbitrary: fc.tuple(node, metaValue).map(([i, { key, value }]): Mutation => (f) => {
          pick(f, i).metadata[key] = value as Json;
        }),
      },
      {
        weight: 2,
        arbitrary: settingsValue.map((settings): Mutation => (f) => {
          f.session.meta["settings"] = settings as Json;
        }),
      },
      {
        weight: 2,
        arbitrary: fc
          .oneof(fc.constantFrom(...ids), fc.constant(undefined))
          .map((v): Mutation => (f) => {
            if (v === undefined) delete f.session.meta["_last_summary_id"];
            else f.session.meta["_last_summary_id"] = v;
          }),
      },
      {
        weight: 2,
        arbitrary: fc
          .oneof(fc.constantFrom(...ids), fc.constant(null))
          .map((v): Mutation => (f) => {
            f.session.headId = v;
          }),
      },
      {
        weight: 2,
        arbitrary: node.map((i): Mutation => (f) => {
          f.nodes.splice(i % f.nodes.length, 1);
        }),
      },
      // Junk of the wrong type anywhere: refused with a clear 400.
      {
        weight: 1,
        arbitrary: fc
          .tuple(
            node,
            fc.constantFrom("kind", "status", "predecessorId", "reads", "metadata"),
            junk(ids),
          )
          .map(([i, name, v]): Mutation => (f) => {
            (pick(f, i) as Record<string, unknown>)[name] = v;
          }),
      },
      {
        weight: 1,
        arbitrary: fc.tuple(node, metaKeys, junk(ids)).map(([i, key, v]): Mutation => (f) => {
          pick(f, i).metadata[key] = v;
        }),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.constantFrom("_last_summary_id", "policy", "settings"), junk(ids))
          .map(([key, v]): Mutation => (f) => {
            f.session.meta[key] = v;
          }),
      },
      {
        weight: 1,
        arbitrary: node.map((i): Mutation => (f) => {
          f.nodes.push(structuredClone(pick(f, i)));
        }),
      },
    );
  };

  it(`[R88] ${RUNS[kind]} mutated ledgers: every route answers 2xx or 4xx, never 5xx`, async () => {
    const ids = base.nodes.map((n) => n.id);
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(mutation(ids), { minLength: 1, maxLength: 3 }), async (muts) => {
        const file = structuredClone(base);
        for (const m of muts) m(file);
        const imported = await routes.call("POST", "/api/import", file);
        expect(imported.status, imported.text).toBeLessThan(500);
        if (imported.status !== 201) {
          expect(imported.json).toHaveProperty("error.code");
          return;
        }
        accepted += 1;
        const s = `/api/sessions/${imported.json["id"] as string}`;
        const nodes = (await routes.call("GET", `${s}/nodes`)).json["nodes"] as { id: string }[];
        const calls: ["GET" | "POST", string, unknown?][] = [
          ["GET", s],
          ["GET", `${s}/context`],
          ["GET", `${s}/graph`],
          ["GET", `${s}/export?format=json`],
          ["GET", `${s}/export?format=md`],
          ["POST", `${s}/turns`, { content: "go on", stream: false }],
          ["POST", `${s}/compact`],
          ["POST", `${s}/head`, { nodeId: nodes.at(-1)?.id ?? "x" }],
          ["POST", `${s}/turns`, { content: "and again", stream: false }],
        ];
        for (const [method, url, body] of calls) {
          const res = await routes.call(method, url, body);
          expect(res.status, `${method} ${url}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
        }
      }),
      { numRuns: RUNS[kind], seed: Number(process.env["SPINDLE_FC_SEED"] ?? 20261201) },
    );
    // The property means something only if many mutations survive import and get served.
    console.log(`[R88] ${kind}: ${accepted} of ${RUNS[kind]} mutated ledgers imported`);
    expect(accepted).toBeGreaterThan(RUNS[kind] / 5);
    // Hundreds of imports and turns: a guard against a hang, not a measure of speed (it took
    // 25–60 s on two cores shared with another test file).
  }, 240_000);
});
