import { describe, expect, it } from "vitest";
import { asNodeId } from "@/lib/engine/ids";
import { ledgerFileSchema, planImport, type ParsedLedgerFile } from "@/lib/portability/ledger-file";
import { DEFAULT_PDF_LIMITS } from "@/lib/files/limits";
import { createPdfReader } from "@/lib/files/pdf-reader";

type FileNode = ParsedLedgerFile["nodes"][number];

function node(
  id: string,
  pred: string | null,
  seq: number,
  extra: Partial<FileNode> = {},
): FileNode {
  return {
    id,
    predecessorId: pred,
    seq,
    kind: pred === null ? "root" : seq % 2 ? "user" : "assistant",
    content: id,
    status: "complete",
    callerId: null,
    metadata: {},
    reads: [],
    createdAt: "2026-12-01T00:00:00.000Z",
    ...extra,
  };
}

function file(
  nodes: FileNode[],
  headId: string | null,
  meta: Record<string, unknown> = {},
): ParsedLedgerFile {
  return ledgerFileSchema.parse({
    format: "spindle.ledger",
    version: 1,
    session: { title: "t", headId, meta },
    nodes,
  });
}

let counter = 0;
const newId = () => asNodeId(`N${String(counter++).padStart(8, "0")}`);
const LIMITS = {
  maxNodes: 100_000,
  count: (text: string) => text.length,
  pdf: { read: createPdfReader(DEFAULT_PDF_LIMITS), maxTextChars: 1_000_000 },
};
const plan = (f: ParsedLedgerFile, limits = LIMITS) => planImport(f, newId, limits);

describe("ledger import", () => {
  it("re-ids every node and translates predecessors, covers_ids, reads and the summary pointer", async () => {
    const f = file(
      [
        node("r", null, 0),
        node("u", "r", 1),
        node("a", "u", 2, { reads: ["r", "u"] }),
        node("s", "r", 3, { kind: "summary", metadata: { covers_ids: ["u", "a"] } }),
      ],
      "a",
      { _last_summary_id: "s", _last_summary_text: "s" },
    );
    const planned = await plan(f);
    const byContent = new Map(planned.nodes.map((n) => [n.content, n]));
    expect(byContent.get("u")?.predecessorId).toBe(byContent.get("r")?.id);
    expect(byContent.get("a")?.reads).toEqual([byContent.get("r")?.id, byContent.get("u")?.id]);
    expect(byContent.get("s")?.metadata.covers_ids).toEqual([
      byContent.get("u")?.id,
      byContent.get("a")?.id,
    ]);
    expect(planned.meta._last_summary_id).toBe(byContent.get("s")?.id);
    expect(planned.meta._last_summary_text).toBe("s");
    expect(planned.headId).toBe(byContent.get("a")?.id);
    expect(new Set(planned.nodes.map((n) => n.id)).has(asNodeId("a"))).toBe(false);
  });

  it("rejects cycles, dangling predecessors, two roots and a summary as HEAD", async () => {
    await expect(
      plan(file([node("r", null, 0), node("x", "y", 1), node("y", "x", 2)], "x")),
    ).rejects.toThrow(/cycle/);
    await expect(plan(file([node("r", null, 0), node("x", "gone", 1)], "x"))).rejects.toThrow(
      /missing predecessor/,
    );
    await expect(plan(file([node("r", null, 0), node("r2", null, 1)], "r"))).rejects.toThrow(
      /one ROOT/,
    );
    await expect(
      plan(
        file(
          [
            node("r", null, 0),
            node("u", "r", 1),
            node("s", "r", 2, { kind: "summary", metadata: { covers_ids: ["u"] } }),
          ],
          "s",
        ),
      ),
    ).rejects.toThrow(/HEAD names a summary/);
    expect(() => file([{ ...node("r", null, 0), createdAt: "yesterday" }], "r")).toThrow();
  });

  it("checks a 50,000-node chain (the walk is linear: quadratic would not finish)", async () => {
    const nodes = [node("n0", null, 0)];
    for (let i = 1; i < 50_000; i++) nodes.push(node(`n${i}`, `n${i - 1}`, i));
    expect((await plan(file(nodes, "n49999"))).nodes).toHaveLength(50_000);
  });

  const chain = () => [
    node("r", null, 0),
    node("u1", "r", 1),
    node("a1", "u1", 2),
    node("u2", "a1", 3),
    node("a2", "u2", 4),
  ];
  const summary = (covers: string[], pred = "r") =>
    node("s", pred, 5, { kind: "summary", metadata: { covers_ids: covers } });
  const raw =
    (nodes: unknown[], headId: string, meta: unknown = {}) =>
    () =>
      ledgerFileSchema.parse({
        format: "spindle.ledger",
        version: 1,
        session: { title: "t", headId, meta },
        nodes,
      });

  it("[R88] refuses meta and metadata the engine could not serve", async () => {
    const hostile: [string, () => unknown][] = [
      ["unknown policy", raw(chain(), "a2", { policy: "stacked" })],
      ["numeric summary pointer", raw(chain(), "a2", { _last_summary_id: 5 })],
      ["negative window", raw(chain(), "a2", { settings: { contextWindow: -1 } })],
      ["zero window", raw(chain(), "a2", { settings: { contextWindow: 0 } })],
      ["text window", raw(chain(), "a2", { settings: { contextWindow: "abc" } })],
      ["numeric model", raw(chain(), "a2", { settings: { model: 123 } })],
      [
        "null tool call",
        raw([...chain(), node("t", "a2", 5, { metadata: { tool_calls: [null] } as never })], "t"),
      ],
      [
        "numeric tool_call_id",
        raw(
          [
            ...chain(),
            node("t", "a2", 5, { kind: "tool", metadata: { tool_call_id: 7 } as never }),
          ],
          "t",
        ),
      ],
      ["covers naming ROOT", () => plan(file([...chain(), summary(["r", "u1"])], "a2"))],
      ["covers naming a missing id", () => plan(file([...chain(), summary(["u1", "zz"])], "a2"))],
      ["covers with a gap", () => plan(file([...chain(), summary(["u1", "u2"])], "a2"))],
      ["covers out of order", () => plan(file([...chain(), summary(["a1", "u1"])], "a2"))],
      [
        "covers not where the summary hangs",
        () => plan(file([...chain(), summary(["u2", "a2"])], "a2")),
      ],
      [
        "covers on a user node",
        () =>
          plan(
            file([node("r", null, 0), node("u", "r", 1, { metadata: { covers_ids: [] } })], "u"),
          ),
      ],
      [
        "covers naming a summary",
        () =>
          plan(
            file(
              [
                ...chain(),
                summary(["u1"]),
                node("s2", "r", 6, { kind: "summary", metadata: { covers_ids: ["s"] } }),
              ],
              "a2",
            ),
          ),
      ],
      ["pointer to a user node", () => plan(file(chain(), "a2", { _last_summary_id: "u1" }))],
      [
        "a turn under a summary",
        () => plan(file([...chain(), summary(["u1", "a1"]), node("x", "s", 6)], "x")),
      ],
    ];
    for (const [what, attempt] of hostile) {
      await expect(Promise.resolve().then(attempt), what).rejects.toThrow();
    }
  });

  it("[R88] recounts tokens, derives the summary text and keeps only known meta", async () => {
    const nodes = chain().map((n) => ({ ...n, tokenCount: 999_999 }));
    const planned = await plan(
      file([...nodes, summary(["u1", "a1"])], "a2", {
        _last_summary_id: "s",
        _last_summary_text: "forged",
        _auto_compact_latch: { failedAtTokens: 1 },
        settings: { contextWindow: 4096, model: null },
        policy: "rolling-single",
      }),
    );
    expect(planned.nodes.map((n) => n.tokenCount)).toEqual(
      planned.nodes.map((n) => n.content.length),
    );
    expect(planned.meta).toEqual({
      // [R105] an imported session keeps its title.
      titleSource: "user",
      _last_summary_id: planned.nodes.find((n) => n.kind === "summary")?.id,
      _last_summary_text: "s",
      settings: { contextWindow: 4096 },
      policy: "rolling-single",
    });
  });

  it("[R88] refuses a ledger over the node cap with 413", async () => {
    await expect(plan(file(chain(), "a2"), { ...LIMITS, maxNodes: 4 })).rejects.toMatchObject({
      code: "payload_too_large",
    });
  });
});

describe("importing active sets (issue 23)", () => {
  const trunk = () => [
    node("r", null, 0),
    node("u1", "r", 1),
    node("a1", "u1", 2),
    node("u2", "a1", 3),
    node("a2", "u2", 4),
    node("u3", "a2", 5),
    node("a3", "u3", 6),
  ];
  const sum = (id: string, pred: string, covers: string[], seq: number, nested = false) =>
    node(id, pred, seq, {
      kind: "summary",
      metadata: nested ? { covers_ids: covers, covers_summaries: true } : { covers_ids: covers },
    });
  const segments = () => [
    ...trunk(),
    sum("s1", "r", ["u1", "a1"], 7),
    sum("s2", "a1", ["u2", "a2"], 8),
  ];

  it("[R250] an active set and nested summaries come in re-ided, with the policy in settings", async () => {
    const planned = await plan(
      file([...segments(), sum("n", "r", ["s1", "s2"], 9, true)], "a3", {
        _active_summary_ids: ["n"],
        settings: { policy: "nested" },
      }),
    );
    const byContent = new Map(planned.nodes.map((n) => [n.content, n]));
    const id = (c: string) => byContent.get(c)?.id;
    expect(planned.meta._active_summary_ids).toEqual([id("n")]);
    expect(planned.meta._last_summary_id).toBeUndefined();
    expect(planned.meta.settings).toEqual({ policy: "nested" });
    expect(byContent.get("n")?.metadata.covers_ids).toEqual([id("s1"), id("s2")]);
    expect(byContent.get("n")?.metadata.covers_summaries).toBe(true);
    // The older top-level spelling of a policy lands in settings.
    const older = await plan(
      file(segments(), "a3", { _active_summary_ids: ["s1", "s2"], policy: "segmented" }),
    );
    expect(older.meta.settings).toEqual({ policy: "segmented" });
  });

  it("[R250] a ledger exported before active sets imports exactly as before", async () => {
    const planned = await plan(
      file([...trunk(), sum("s", "r", ["u1", "a1", "u2"], 7)], "a3", {
        _last_summary_id: "s",
        _last_summary_text: "s",
        settings: { contextWindow: 4096 },
      }),
    );
    expect(planned.meta).toEqual({
      titleSource: "user",
      settings: { contextWindow: 4096 },
      _last_summary_id: planned.nodes.find((n) => n.kind === "summary")?.id,
      _last_summary_text: "s",
    });
  });

  it("[R250] refuses overlapping, non-contiguous or missing segments and nested covers that cycle, naming the problem", async () => {
    const refused: [string, () => Promise<unknown>, RegExp][] = [
      [
        "overlapping segments",
        () =>
          plan(
            file(
              [...trunk(), sum("s1", "r", ["u1", "a1"], 7), sum("s2", "r", ["u1", "a1", "u2"], 8)],
              "a3",
              {
                _active_summary_ids: ["s1", "s2"],
              },
            ),
          ),
        /overlap/,
      ],
      [
        "a nested summary and one it names, both active",
        () =>
          plan(
            file([...segments(), sum("n", "r", ["s1", "s2"], 9, true)], "a3", {
              _active_summary_ids: ["n", "s2"],
            }),
          ),
        /overlap/,
      ],
      [
        "a non-contiguous segment",
        () =>
          plan(
            file([...trunk(), sum("s1", "r", ["u1", "u2"], 7)], "a3", {
              _active_summary_ids: ["s1"],
            }),
          ),
        /contiguous/,
      ],
      [
        "a nested summary over segments with a gap",
        () =>
          plan(
            file(
              [
                ...trunk(),
                sum("s1", "r", ["u1"], 7),
                sum("s2", "a1", ["u2", "a2"], 8),
                sum("n", "r", ["s1", "s2"], 9, true),
              ],
              "a3",
              {
                _active_summary_ids: ["n"],
              },
            ),
          ),
        /contiguous/,
      ],
      [
        "a missing summary",
        () => plan(file(segments(), "a3", { _active_summary_ids: ["s1", "gone"] })),
        /no summary/,
      ],
      [
        "a turn named as active",
        () => plan(file(segments(), "a3", { _active_summary_ids: ["u1"] })),
        /no summary/,
      ],
      [
        "the same summary twice",
        () => plan(file(segments(), "a3", { _active_summary_ids: ["s1", "s1"] })),
        /twice/,
      ],
      [
        "nested covers that cycle",
        () =>
          plan(
            file(
              [...trunk(), sum("n1", "r", ["n2"], 7, true), sum("n2", "r", ["n1"], 8, true)],
              "a3",
            ),
          ),
        /cycle/,
      ],
      [
        "a nested summary naming a turn",
        () => plan(file([...segments(), sum("n", "r", ["s1", "u2"], 9, true)], "a3")),
        /covers summaries only/,
      ],
      [
        "both forms of the active set",
        () => plan(file(segments(), "a3", { _last_summary_id: "s1", _active_summary_ids: ["s2"] })),
        /both/,
      ],
    ];
    for (const [what, attempt, message] of refused) {
      await expect(attempt(), what).rejects.toMatchObject({
        code: "invalid_request",
        message: expect.stringMatching(message),
      });
    }
    expect(() => file(segments(), "a3", { settings: { policy: "stacked" } })).toThrow(
      /rolling-single, segmented, nested/,
    );
  });
});
