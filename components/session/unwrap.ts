import type { ActionResult } from "@/lib/server/run-action";

/** A server action's value, or its error message thrown for the caller's error banner. */
export function unwrap<T>(result: ActionResult<T>): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}
