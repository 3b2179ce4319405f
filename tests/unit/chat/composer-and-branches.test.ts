import { describe, expect, it } from "vitest";
import { parseComposer } from "@/components/chat/slash-command";
import { branchTip, versionsUnder } from "@/lib/engine/branch-tip";
import { readSse } from "@/components/chat/sse-client";
import { asNodeId, asSessionId, tokens, type NodeId } from "@/lib/engine/ids";
import type { LedgerNode } from "@/lib/engine/types";

describe("composer commands", () => {
  it("[R297] parses the slash commands, refuses an unknown one and leaves other text as a message", () => {
    expect(parseComposer("/compact")).toEqual({ kind: "compact" });
    expect(parseComposer("/task find the bug")).toEqual({ kind: "task", prompt: "find the bug" });
    expect(parseComposer("/send 01ABC hello there")).toEqual({
      kind: "send",
      sessionId: "01ABC",
      text: "hello there",
    });
    expect(parseComposer("/model gpt-4o")).toEqual({ kind: "model", name: "gpt-4o" });
    expect(parseComposer("/task")).toMatchObject({ kind: "invalid" });
    expect(parseComposer("/")).toMatchObject({
      kind: "invalid",
      message: expect.stringContaining("/compact"),
    });
    expect(parseComposer("/send 01ABC")).toMatchObject({ kind: "invalid" });
    // A command that does not exist is refused, not sent to the model (a typo of /compact).
    expect(parseComposer("/compcat")).toEqual({
      kind: "invalid",
      message: expect.stringContaining("There is no command /compcat: try /compact, /task"),
    });
    // `//` sends text that starts with a slash; a path is text already.
    expect(parseComposer("//unknown thing")).toEqual({ kind: "message", text: "/unknown thing" });
    expect(parseComposer("/etc/hosts maps names")).toEqual({
      kind: "message",
      text: "/etc/hosts maps names",
    });
    expect(parseComposer("hello /compact")).toEqual({ kind: "message", text: "hello /compact" });
  });
});

function node(
  id: string,
  pred: string | null,
  seq: number,
  extra: Partial<LedgerNode> = {},
): LedgerNode {
  return {
    id: asNodeId(id),
    sessionId: asSessionId("S"),
    predecessorId: pred === null ? null : asNodeId(pred),
    seq,
    kind: "user",
    content: id,
    status: "complete",
    callerId: null,
    metadata: {},
    reads: [],
    tokenCount: tokens(1),
    createdAt: "2026-12-01T00:00:00.000Z",
    ...extra,
  };
}

describe("sibling navigation target", () => {
  const nodes = [
    node("R", null, 0, { kind: "root" }),
    node("a", "R", 1),
    node("a1", "a", 2, { kind: "assistant" }),
    node("a1x", "a1", 3),
    node("a2", "a", 4, { kind: "assistant" }),
    node("a1y", "a1", 5),
    node("s", "a1", 6, { kind: "summary" }),
  ];
  const childrenOf = (id: NodeId) => nodes.filter((n) => n.predecessorId === id);
  const get = (id: string) => nodes.find((n) => n.id === id) as LedgerNode;

  it("follows a /task caller to its tool result, not into the spawned branch", () => {
    const task = [
      node("R", null, 0, { kind: "root" }),
      node("c", "R", 1, { kind: "assistant" }),
      node("sub", "c", 2, { callerId: asNodeId("c") }),
      node("subReply", "sub", 3, { kind: "assistant", callerId: asNodeId("c") }),
      node("result", "c", 4, { kind: "tool", callerId: asNodeId("c") }),
    ];
    const kids = (id: NodeId) => task.filter((n) => n.predecessorId === id);
    const caller = task[1] as LedgerNode;
    expect(versionsUnder(caller, kids).map((n) => n.id)).toEqual(["result"]);
    expect(branchTip(caller, kids)).toBe("result");
  });

  it("lands on the most recently written leaf below the chosen version", () => {
    expect(branchTip(get("a1"), childrenOf)).toBe("a1y");
    expect(branchTip(get("a"), childrenOf)).toBe("a1y");
    expect(branchTip(get("a2"), childrenOf)).toBe("a2");
  });
});

describe("SSE reader", () => {
  it("splits events across arbitrary chunk boundaries", async () => {
    const text =
      'event: node\ndata: {"id":1}\n\n: keep-alive\n\nevent: delta\ndata: {"text":"a\\nb"}\n\n';
    const bytes = new TextEncoder().encode(text);
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < bytes.length; i += 7) c.enqueue(bytes.slice(i, i + 7));
        c.close();
      },
    });
    const got = [];
    for await (const m of readSse(body)) got.push(m);
    expect(got).toEqual([
      { event: "node", data: '{"id":1}' },
      { event: "delta", data: '{"text":"a\\nb"}' },
    ]);
  });
});
