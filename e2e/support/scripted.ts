import { expect } from "@playwright/test";
import { FAKE_OPENAI_URL } from "./servers";

/**
 * Scripts the OpenAI-protocol test server: its recorded requests are forgotten and the next
 * chat requests are answered by `behaviours`, in the order they arrive
 * (tests/support/recording-server.ts says what a behaviour can be).
 */
export async function scriptBehaviours(behaviours: readonly unknown[]): Promise<void> {
  await fetch(`${FAKE_OPENAI_URL}/_control/reset`, { method: "POST" });
  const res = await fetch(`${FAKE_OPENAI_URL}/_control/enqueue`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ behaviours }),
  });
  expect(res.ok).toBe(true);
}

/** Scripts the next replies as plain texts. */
export async function scriptReplies(...texts: string[]): Promise<void> {
  await scriptBehaviours(texts.map((text) => ({ kind: "reply", text })));
}
