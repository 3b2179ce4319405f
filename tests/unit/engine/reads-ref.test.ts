import { describe, expect, it } from "vitest";
import { toWire } from "@/lib/view/wire";
import { expandReadsRef, referable } from "@/lib/engine/reads-ref";
import { id, ledger } from "./helpers";

describe("reads references", () => {
  it("[R134] a reference expands to the ids the rendering sends, the summary in place", () => {
    const l = ledger().chain("R", "u1 a1 u2 a2 u3 a3 u4");
    l.summary("S", ["u1", "a1", "u2", "a2"]);
    const get = l.index().get;
    expect(expandReadsRef({ head: id("u4"), summary: id("S") }, get)).toEqual(
      toWire(l.render("u4", "S")).ids,
    );
    expect(expandReadsRef({ head: id("u4"), summary: id("S") }, get).slice(0, 2)).toEqual([
      "R",
      "S",
    ]);
    expect(expandReadsRef({ head: id("u4"), summary: null }, get)).toEqual(
      toWire(l.render("u4")).ids,
    );
  });

  it("[R134] an unanswered tool call with no text is left out, as the provider was sent", () => {
    const l = ledger().chain("R", "u1");
    l.add("a1", "assistant", "u1", { toolCalls: ["c1"], content: "" });
    l.add("u2", "user", "a1", { callerId: "a1" });
    const ids = expandReadsRef({ head: id("u2"), summary: null }, l.index().get);
    expect(ids).toEqual(toWire(l.render("u2")).ids);
    expect(ids).toEqual(["R", "u1", "u2"]);
  });

  it("[R134] only a spine of final nodes may be referred to", () => {
    const l = ledger().chain("R", "u1 a1");
    expect(referable(l.spine("a1"))).toBe(true);
    expect(referable([...l.spine("a1"), { ...l.get("a1"), status: "streaming" }])).toBe(false);
  });
});
