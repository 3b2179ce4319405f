import { describe, expect, it } from "vitest";
import { createToolCallAssembler } from "@/lib/llm/tool-call-assembler";

describe("tool-call assembler", () => {
  it("joins argument pieces by index, keeping id and name from the first fragment", () => {
    const a = createToolCallAssembler();
    a.add({ index: 0, id: "c0", function: { name: "f", arguments: "" } }, 0);
    a.add({ index: 1, id: "c1", function: { name: "g", arguments: '{"b"' } }, 0);
    a.add({ index: 0, function: { arguments: '{"a":' } }, 0);
    a.add({ index: 0, function: { arguments: "1}" } }, 0);
    a.add({ index: 1, function: { arguments: ":2}" } }, 0);
    expect(a.calls()).toEqual([
      { id: "c0", name: "f", arguments: '{"a":1}' },
      { id: "c1", name: "g", arguments: '{"b":2}' },
    ]);
  });

  it("accepts whole calls in one chunk without an index (Ollama) and synthesises missing ids", () => {
    const a = createToolCallAssembler();
    a.add({ function: { name: "f", arguments: "{}" } }, 0);
    a.add({ id: "x", function: { name: "g", arguments: "[]" } }, 1);
    expect(a.calls()).toEqual([
      { id: "call_0", name: "f", arguments: "{}" },
      { id: "x", name: "g", arguments: "[]" },
    ]);
  });

  it("does not double a name repeated on later fragments", () => {
    const a = createToolCallAssembler();
    a.add({ index: 0, id: "c", function: { name: "f", arguments: "{" } }, 0);
    a.add({ index: 0, id: "c", function: { name: "f", arguments: "}" } }, 0);
    expect(a.calls()).toEqual([{ id: "c", name: "f", arguments: "{}" }]);
  });
});
