/**
 * The judge of a model audit: scores the answer a model gave from the summary against the
 * answer it gave from the originals (the reference), 0–5, with the sentence the probe came
 * from as ground truth. Its reply is parsed leniently — a score is the first integer 0–5 —
 * and a reply without one scores nothing (the probe is marked unjudged, not zero).
 */
import type { ChatMessage } from "../llm/types";

export const JUDGE_SYSTEM =
  "You grade how well an answer preserves information. Scores: 5 = same information as the " +
  "reference; 4 = same key facts, minor detail lost; 3 = partly right; 2 = mostly missing or " +
  "vague; 1 = wrong; 0 = says it is not stated, or contradicts the reference. Reply with a " +
  'JSON object only: {"score": <0-5>, "reason": "<one short sentence>"}.';

export function judgeMessages(input: {
  readonly question: string;
  readonly sentence: string;
  readonly reference: string;
  readonly candidate: string;
}): ChatMessage[] {
  return [
    { role: "system", content: JUDGE_SYSTEM },
    {
      role: "user",
      content: [
        `Question: ${input.question}`,
        `What the original conversation says: ${input.sentence}`,
        `Reference answer (from the original conversation): ${input.reference}`,
        `Answer to grade (from a summary of it): ${input.candidate}`,
      ].join("\n"),
    },
  ];
}

export interface Verdict {
  readonly score: number;
  readonly reason: string;
}

/** The judge's verdict, or null when its reply holds no score 0–5. */
export function parseVerdict(reply: string): Verdict | null {
  const json = reply.match(/\{[\s\S]*\}/)?.[0];
  if (json !== undefined) {
    try {
      const value: unknown = JSON.parse(json);
      if (typeof value === "object" && value !== null) {
        const { score, reason } = value as { score?: unknown; reason?: unknown };
        const n = typeof score === "string" ? Number(score) : score;
        if (typeof n === "number" && Number.isInteger(n) && n >= 0 && n <= 5) {
          return { score: n, reason: typeof reason === "string" ? reason : "" };
        }
      }
    } catch {
      // Not JSON after all: fall through to the first number.
    }
  }
  const bare = reply.match(/\b([0-5])\b/);
  return bare?.[1] === undefined ? null : { score: Number(bare[1]), reason: reply.trim() };
}
