import { describe, expect, it } from "vitest";
import {
  LABEL_MAX_CHARS,
  firstLine,
  firstLineOfPrefix,
  leanNode,
  shapeNode,
  skeletonNode,
} from "@/lib/engine/wire-node";
import { ledger } from "./helpers";

/** R → u1 a1 (a tool call with arguments), a streaming reply and a summary. */
function world() {
  const l = ledger().chain("R", "u1");
  l.add("a1", "assistant", "u1", {
    content: "\n\n  Here is the plan  \nstep one\nstep two",
    toolCalls: ["c1"],
    metadata: { model: "m" },
  });
  l.add("a2", "assistant", "u1", { content: "partial text\nmore", status: "streaming" });
  l.summary("S", ["u1", "a1"]);
  return l;
}

describe("wire shapes (docs/big-sessions.md)", () => {
  it("[R113] the label is the first non-empty line of the first 20, at most 90 characters", () => {
    expect(firstLine("\n  \n  hello world  \nsecond")).toBe("hello world");
    expect(firstLine("x".repeat(200))).toBe(`${"x".repeat(LABEL_MAX_CHARS - 3)}...`);
    expect(firstLine("x".repeat(200))).toHaveLength(LABEL_MAX_CHARS);
    expect(firstLine("x".repeat(90))).toBe("x".repeat(90));
    expect(firstLine(`${"\n".repeat(20)}too deep`)).toBe("");
    expect(firstLine("")).toBe("");
    // The cut mark is Latin-1, so a label of Latin-1 text is one byte a character on the page.
    expect(/[\u0100-\uffff]/.test(firstLine(`café ${"é".repeat(200)}`))).toBe(false);
    // Never half an emoji: the cut backs off before a pair it would split.
    const emoji = "😀";
    const cutInside = `${"x".repeat(LABEL_MAX_CHARS - 4)}${emoji}${"y".repeat(20)}`;
    expect(firstLine(cutInside)).toBe(`${"x".repeat(LABEL_MAX_CHARS - 4)}...`);
    expect(/\p{Cs}/u.test(firstLine(cutInside))).toBe(false);
    const cutAfter = `${"x".repeat(LABEL_MAX_CHARS - 5)}${emoji}${"y".repeat(20)}`;
    expect(firstLine(cutAfter)).toBe(`${"x".repeat(LABEL_MAX_CHARS - 5)}${emoji}...`);
    expect(firstLineOfPrefix(cutInside, false)).toBe(firstLine(cutInside));
  });

  it("[R113] a label read from a prefix is the whole text's, or undecided", () => {
    const texts = [
      "short",
      `${" ".repeat(3000)}\nlate line`,
      `${"\n".repeat(30)}never seen`,
      `title\n${"y".repeat(5000)}`,
      `  ${"z".repeat(4000)}`,
      `${" ".repeat(2040)}${"w".repeat(40)}`,
      `${"\n ".repeat(10)}${"v".repeat(95)}tail`,
    ];
    for (const text of texts) {
      for (const cut of [1, 10, 50, 100, 2048]) {
        const prefix = text.slice(0, cut);
        const label = firstLineOfPrefix(prefix, prefix.length === text.length);
        if (label !== undefined)
          expect(label, `${cut}: ${text.slice(0, 20)}`).toBe(firstLine(text));
      }
      expect(firstLineOfPrefix(text, true)).toBe(firstLine(text));
    }
    // Decided without the rest: a whole first line, a cut line already longer than a label,
    // twenty blank lines.
    expect(firstLineOfPrefix("title\nmore", false)).toBe("title");
    expect(firstLineOfPrefix(`  ${"z".repeat(100)}`, false)).toBe(firstLine("z".repeat(100)));
    expect(firstLineOfPrefix("\n".repeat(25), false)).toBe("");
    // Undecided: only blanks so far, or a cut line that may go on.
    expect(firstLineOfPrefix("   ", false)).toBeUndefined();
    expect(firstLineOfPrefix("\n\nshort", false)).toBeUndefined();
  });

  it("[R113] full, lean and skeleton shapes", () => {
    const l = world();
    const a1 = l.get("a1");
    const withReads = { ...a1, reads: l.nodes.slice(0, 2).map((n) => n.id) };
    expect(shapeNode(withReads, "full")).toBe(withReads);
    expect(shapeNode(withReads, "full")).not.toHaveProperty("partial");
    expect(leanNode(withReads)).toEqual({ ...withReads, reads: [], partial: "reads" });
    expect(shapeNode(withReads, "lean")).toEqual(leanNode(withReads));
    const skeleton = skeletonNode(withReads);
    expect(skeleton).toEqual({
      ...withReads,
      content: "Here is the plan",
      reads: [],
      metadata: { model: "m", tool_calls: [{ id: "c1", name: "lookup", arguments: "" }] },
      partial: "skeleton",
    });
    expect(skeletonNode(withReads, "given label").content).toBe("given label");
    // The input is never touched.
    expect(withReads.metadata.tool_calls?.[0]?.arguments).toBe("{}");
    // A lean node made lean or skeleton again keeps one `partial`.
    expect(skeletonNode(leanNode(a1))).toEqual(skeleton);
  });

  it("[R113] ROOT, summaries and streaming replies are never skeletons", () => {
    const l = world();
    for (const nodeId of ["R", "S", "a2"]) {
      const node = l.get(nodeId);
      expect(skeletonNode(node), nodeId).toEqual({ ...node, reads: [], partial: "reads" });
      expect(shapeNode(node, "skeleton"), nodeId).toEqual(leanNode(node));
    }
  });
});
