import { z } from "zod";
import { isEngineError, type ErrorCode } from "../engine/errors";
import { errorBody, httpStatusOf } from "./status";
import { readBodyText } from "./edge";
import { parseJsonText } from "./json-text";

/** The error body of every API route: `{error: {code, message}}`. */
export function errorResponse(code: ErrorCode, message: string, status = httpStatusOf(code)) {
  return Response.json(errorBody({ code, message }), { status });
}

/** zod may be bundled into several server chunks, so its errors are recognised by shape. */
function isZodError(e: unknown): e is z.ZodError {
  return e instanceof z.ZodError || (e instanceof Error && e.name === "ZodError" && "issues" in e);
}

/**
 * The catalogue code and message for anything thrown by a route or a server action; logs
 * only the unexpected (whose details stay on the server).
 */
export function toErrorBody(e: unknown): { code: ErrorCode; message: string } {
  if (isEngineError(e)) return { code: e.code, message: e.message };
  if (isZodError(e)) {
    const issue = e.issues[0];
    if (issue?.code === "unrecognized_keys") {
      // Named in full (`settings.modle`), so a misspelt field is found at once.
      const names = issue.keys.map((k) => `"${[...issue.path, k].join(".")}"`).join(", ");
      return {
        code: "invalid_request",
        message: `Unknown field${issue.keys.length > 1 ? "s" : ""} ${names}: not part of this request.`,
      };
    }
    const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
    return { code: "invalid_request", message: `${where}${issue?.message ?? "invalid request"}` };
  }
  console.error("[spindle] unexpected error", e);
  return { code: "internal", message: "Something went wrong on the server." };
}

/** Maps anything thrown inside a route to a typed JSON error (with `Retry-After` if known). */
export function toErrorResponse(e: unknown): Response {
  const { code, message } = toErrorBody(e);
  const res = errorResponse(code, message);
  const wait = isEngineError(e) ? e.details?.["retryAfterSeconds"] : undefined;
  if (typeof wait === "number") res.headers.set("retry-after", String(wait));
  return res;
}

/** Runs a route body, turning thrown errors into typed JSON errors. */
export async function handle(fn: () => Promise<Response>): Promise<Response> {
  try {
    return await fn();
  } catch (e) {
    return toErrorResponse(e);
  }
}

/** The body cap when the caller names none (the server's is `SPINDLE_MAX_BODY_BYTES`). */
const DEFAULT_BODY_LIMIT = 4 * 1024 * 1024;

/**
 * Parses a JSON request body with a zod schema: past `limit` bytes it is a 413; malformed,
 * too deep or carrying a NUL character a 400.
 */
export async function readJson<S extends z.ZodType>(
  req: Request,
  schema: S,
  limit = DEFAULT_BODY_LIMIT,
): Promise<z.infer<S>> {
  return schema.parse(parseJsonText(await readBodyText(req, limit)));
}
