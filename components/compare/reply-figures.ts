import type { NodeMetadata } from "@/lib/engine/types";

const n = (x: number) => x.toLocaleString("en");
const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;

/**
 * What a reply column of the compare view says about how the reply was made (issue 22):
 * prompt and completion tokens, time to first token and in all, and for a replay without its
 * summaries, how many turns stood in their place. Missing figures are left out.
 */
export function replyFigures(metadata: NodeMetadata): string[] {
  const out: string[] = [];
  const usage = metadata.usage;
  if (usage)
    out.push(`${n(usage.promptTokens)} prompt · ${n(usage.completionTokens)} reply tokens`);
  const timing = metadata["timing"] as { firstTokenMs?: number; totalMs?: number } | undefined;
  if (typeof timing?.firstTokenMs === "number") {
    out.push(`first token ${seconds(timing.firstTokenMs)}`);
  }
  if (typeof timing?.totalMs === "number") out.push(`${seconds(timing.totalMs)} in all`);
  const turns = metadata["expanded_turns"];
  if (typeof turns === "number") {
    out.push(`without the summary of ${turns} ${turns === 1 ? "turn" : "turns"}`);
  }
  return out;
}
