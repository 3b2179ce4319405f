import { describe, expect, it } from "vitest";
import { chooseProbes, extractProbes, type ProbeSource } from "@/lib/audit/extract-probes";
import { containsAll, containsValue } from "@/lib/audit/find-value";
import { offlineCheck } from "@/lib/audit/offline-check";
import { parseVerdict } from "@/lib/audit/judge";
import { asNodeId } from "@/lib/engine/ids";

const source = (id: string, role: ProbeSource["role"], content: string): ProbeSource => ({
  id: asNodeId(id),
  role,
  content,
});

const ORIGINALS: ProbeSource[] = [
  source(
    "u1",
    "user",
    "Our contact at the processor is Priya Raman; she signs off on webhook changes.",
  ),
  source(
    "a1",
    "assistant",
    "Sure. I put the migration in db/migrate/20250312_create_invoices.sql and the flag is billing.dual_read_v3. The dashboard is https://grafana.example.com/d/inv214/drift.",
  ),
  source("u2", "user", "The p95 latency budget is 180 ms and the deadline is March 14."),
  source(
    "a2",
    "assistant",
    "Then we settle it: amounts are stored as integer cents, and conversion happens at the edge.",
  ),
  source("u3", "user", "Before we finish, remind me to rotate the replication password."),
  source("u4", "user", "I opened ticket BILL-2251 for it."),
];

describe("audit probes (issue 22)", () => {
  it("[R226] facts, artifacts, decisions and pending asks are extracted as clozes of their sentence", () => {
    const probes = extractProbes(ORIGINALS);
    const keys = (kind: string) => probes.filter((p) => p.kind === kind).map((p) => p.keys);
    expect(keys("fact")).toEqual(
      expect.arrayContaining([["Priya Raman"], ["180 ms"], ["March 14"]]),
    );
    expect(keys("artifact")).toEqual(
      expect.arrayContaining([
        ["db/migrate/20250312_create_invoices.sql"],
        ["billing.dual_read_v3"],
        ["https://grafana.example.com/d/inv214/drift"],
        ["BILL-2251"],
      ]),
    );
    expect(keys("decision")).toEqual([["integer", "cents"]]);
    expect(keys("pending")).toEqual([["replication", "password"]]);
    for (const probe of probes) {
      // The question never gives the answer away, and names the sentence's source.
      for (const key of probe.keys) expect(probe.question).not.toContain(key);
      expect(probe.question).toContain("____");
      expect(ORIGINALS.find((s) => s.id === probe.sourceId)?.content).toContain(probe.sentence);
    }
    // A URL's or a path's pieces are not separate artifacts; sentence openers are not names.
    expect(keys("artifact").flat()).not.toContain("grafana.example.com");
    expect(keys("fact").flat()).not.toContain("Before");
  });

  it("[R226] probes are chosen most telling first, at most the cap of each kind", () => {
    const probes = extractProbes(ORIGINALS);
    const chosen = chooseProbes(probes, { fact: 2, artifact: 1, decision: 1, pending: 0 });
    expect(chosen.filter((p) => p.kind === "fact")).toHaveLength(2);
    expect(chosen.filter((p) => p.kind === "artifact")).toHaveLength(1);
    expect(chosen.filter((p) => p.kind === "pending")).toHaveLength(0);
    expect(chosen.every((p) => p.weight === 3)).toBe(true);
    // In the originals' order.
    expect(chosen.map((p) => probes.indexOf(p))).toEqual(
      [...chosen.map((p) => probes.indexOf(p))].sort((a, b) => a - b),
    );
  });

  it("[R227] the offline check finds each probe's values in the summary text, literally", () => {
    const probes = extractProbes(ORIGINALS);
    const summary =
      "Goal: move billing.\n- Contact: **Priya Raman**.\n- p95 budget 180ms; deadline March 14.\n" +
      "- Files: db/migrate/20250312_create_invoices.sql";
    const check = offlineCheck(probes, summary);
    const found = (key: string) => check.probes.find((p) => p.keys.includes(key))?.found;
    expect(found("Priya Raman")).toBe(true);
    expect(found("180 ms")).toBe(true);
    expect(found("billing.dual_read_v3")).toBe(false);
    expect(found("BILL-2251")).toBe(false);
    expect(check.overall.total).toBe(probes.length);
    expect(check.overall.retained).toBe(check.probes.filter((p) => p.found).length);
    expect(check.byKind.decision).toEqual({ retained: 0, total: 1 });
  });

  it("[R227] a value is found only where it stands on its own, whatever its spelling of space and case", () => {
    expect(containsValue("budget is 180ms.", "180 ms")).toBe(true);
    expect(containsValue("budget is 1180 ms", "180 ms")).toBe(false);
    expect(containsValue("Total: $52,250", "$52250")).toBe(true);
    expect(containsValue("caps attendance at 425 people", "425")).toBe(true);
    expect(containsValue("caps attendance at 4250 people", "425")).toBe(false);
    expect(containsValue("see `billing.v2`", "billing.v2")).toBe(true);
    expect(containsAll("integer cents", ["integer", "cents"])).toBe(true);
    expect(containsAll("integer dollars", ["integer", "cents"])).toBe(false);
    expect(containsAll("anything", [])).toBe(false);
  });

  it("[R228] the judge's score is the first integer 0–5 of its reply; none is no verdict", () => {
    expect(parseVerdict('{"score": 4, "reason": "minor loss"}')).toEqual({
      score: 4,
      reason: "minor loss",
    });
    expect(parseVerdict('Sure! {"score":"2","reason":"vague"}')).toEqual({
      score: 2,
      reason: "vague",
    });
    expect(parseVerdict("Score: 5")?.score).toBe(5);
    expect(parseVerdict('{"score": 9}')).toBeNull();
    expect(parseVerdict("I cannot grade this.")).toBeNull();
  });
});
