import { describe, expect, it } from "vitest";
import { asNodeId, tokens } from "@/lib/engine/ids";
import { renderContext } from "@/lib/engine/render-context";
import type { LedgerNode } from "@/lib/engine/types";
import { planBranchCopy } from "@/lib/portability/branch-copy";
import { codeOf, ledger } from "../engine/helpers";

function fresh() {
  let n = 0;
  return () => asNodeId(`new${++n}`);
}

/** The plan's nodes as ledger nodes of a session, to render them. */
function asLedger(nodes: ReturnType<typeof planBranchCopy>["nodes"]): LedgerNode[] {
  return nodes.map((n) => ({ ...n, sessionId: "copy" as LedgerNode["sessionId"] }));
}

describe("[R107] a branch copied under a new system prompt", () => {
  it("[R107] copies what the branch renders raw, as one chain under a new ROOT", () => {
    const src = ledger().chain("R", "u1 a1 u2 a2 u3 a3");
    src.add("t1", "tool", "a3", { toolCallId: "c1", callerId: "a3" });
    src.add("a4", "assistant", "t1", { status: "interrupted", content: "partial" });
    src.add("u4", "user", "a4");
    src.add("a5", "assistant", "u4", { status: "error" });
    src.add("u5", "user", "a5");
    src.add("a6", "assistant", "u5", { status: "streaming" });
    src.summary("S1", ["u1", "a1"], "R");
    const session = src.session("a6", "S1", { settings: { model: "m" }, titleSource: "auto" });
    const plan = planBranchCopy({
      source: session,
      spine: src.spine("a6"),
      systemPrompt: "Be terse.",
      systemPromptTokens: tokens(3),
      newId: fresh(),
      now: "2026-01-01T00:00:00.000Z",
    });
    const [root, ...rest] = plan.nodes;
    expect(root).toMatchObject({ id: plan.rootId, kind: "root", content: "Be terse.", seq: 0 });
    expect(root?.tokenCount).toBe(3);
    // error and streaming nodes are left out; the interrupted reply stays, as the model reads it.
    expect(rest.map((n) => n.metadata["copied_from"])).toEqual([
      "u1",
      "a1",
      "u2",
      "a2",
      "u3",
      "a3",
      "t1",
      "a4",
      "u4",
      "u5",
    ]);
    rest.forEach((n, i) => {
      expect(n.predecessorId).toBe(plan.nodes[i]?.id);
      expect(n.seq).toBe(i + 1);
      expect(n.reads).toEqual([]);
      expect(n.kind).not.toBe("summary");
    });
    const t1 = rest.find((n) => n.metadata["copied_from"] === "t1");
    expect(t1?.callerId).toBe(rest.find((n) => n.metadata["copied_from"] === "a3")?.id);
    expect(t1?.metadata.tool_call_id).toBe("c1");
    expect(plan.headId).toBe(rest.at(-1)?.id);
    expect(plan.title).toBe(session.title);
    expect(plan.meta).toEqual({
      settings: { model: "m" },
      titleSource: "auto",
      forkedFrom: { sessionId: session.id, nodeId: "a6" },
    });

    // The copy reads what the source branch reads raw, with the new system prompt.
    const raw = renderContext({ spine: src.spine("u5"), activeSummaries: [] });
    const copy = renderContext({
      spine: asLedger(plan.nodes),
      activeSummaries: [],
    });
    expect(copy.messages.map((m) => [m.role, m.content])).toEqual([
      ["system", "Be terse."],
      ...raw.messages.slice(1).map((m) => [m.role, m.content]),
    ]);
  });

  it("[R107] a title given for the copy is the user's; a side leaf is no branch to copy", () => {
    const src = ledger().chain("R", "u1 a1");
    src.summary("S1", ["u1"], "R");
    const base = {
      source: src.session("a1"),
      systemPrompt: "x",
      systemPromptTokens: tokens(1),
      newId: fresh(),
      now: "2026-01-01T00:00:00.000Z",
    };
    const titled = planBranchCopy({ ...base, spine: src.spine("a1"), title: " Mine " });
    expect(titled.title).toBe("Mine");
    expect(titled.meta.titleSource).toBe("user");
    const onlyRoot = planBranchCopy({ ...base, spine: src.spine("R") });
    expect(onlyRoot.nodes).toHaveLength(1);
    expect(onlyRoot.headId).toBe(onlyRoot.rootId);
    expect(
      codeOf(() => planBranchCopy({ ...base, spine: [...src.spine("R"), src.get("S1")] })),
    ).toBe("node_not_checkoutable");
  });
});
