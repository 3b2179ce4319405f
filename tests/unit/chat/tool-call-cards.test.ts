import { describe, expect, it } from "vitest";
import { sameText } from "@/components/chat/tool-call-cards";
import { skeletonNode } from "@/lib/engine/wire-node";
import { wireNode } from "../../support/wire-node";

describe("a sub-agent's branch is found by its prompt, whole or as a skeleton", () => {
  const prompt =
    "Read the three attached itineraries, compare their train connections between Lisbon and Porto, and list the fastest\nThen the cheapest.";

  it("a whole node matches its text exactly", () => {
    expect(sameText(wireNode("u", "a", 2, "user", { content: prompt }), prompt)).toBe(true);
    expect(sameText(wireNode("u", "a", 2, "user", { content: prompt }), `${prompt}!`)).toBe(false);
  });

  it("a skeleton matches by its label, a long first line cut with the mark included", () => {
    const skeleton = skeletonNode(wireNode("u", "a", 2, "user", { content: prompt }));
    expect(skeleton.content.endsWith("...")).toBe(true);
    expect(sameText(skeleton, prompt)).toBe(true);
    expect(sameText(skeleton, "Read the three attached itineraries, and nothing else")).toBe(false);
    const empty = skeletonNode(wireNode("e", "a", 3, "user", { content: "" }));
    expect(sameText(empty, "")).toBe(false);
  });
});
