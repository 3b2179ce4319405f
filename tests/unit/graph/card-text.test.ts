import { describe, expect, it } from "vitest";
import { auditText } from "@/components/graph/card-text";

describe("a summary's audit in words (issue 22)", () => {
  it("gives a model's audit as its mean score of 5, to one decimal", () => {
    expect(auditText({ score: 4.24, found: 0, total: 9 })).toBe("audit 4.2/5");
    expect(auditText({ score: 0, found: 3, total: 9 })).toBe("audit 0.0/5");
  });

  it("gives the check without a model as the facts the summary kept, of all", () => {
    expect(auditText({ score: null, found: 7, total: 9 })).toBe("audit: 7 of 9 facts kept");
    expect(auditText({ score: null, found: 0, total: 0 })).toBe("audit: 0 of 0 facts kept");
  });

  it("shortens the check without a model to a fraction on the capsule's badge", () => {
    expect(auditText({ score: null, found: 19, total: 21 }, "badge")).toBe("audit 19/21");
    expect(auditText({ score: 4.24, found: 0, total: 9 }, "badge")).toBe("audit 4.2/5");
  });
});
