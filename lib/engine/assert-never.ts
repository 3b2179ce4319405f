import { EngineError } from "./errors";

/**
 * The default branch of an exhaustive `switch`: a compile error when a union grows, and an
 * `internal` error if untyped data (a JSON column) smuggles in a value the union lacks.
 */
export function assertNever(value: never, what = "value"): never {
  throw new EngineError("internal", `Unexpected ${what}: ${String(value)}`);
}
