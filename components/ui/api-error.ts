import { errorSchema } from "@/lib/http/answers";

/** A refusal as the page reports it: the API's `{code, message}`. */
export interface ErrorBody {
  readonly code: string;
  readonly message: string;
}

/**
 * The `{code, message}` of an API error body (docs/api.md), or `http_error` with
 * `fallback` when `body` is not one (not JSON, a proxy's page, an empty message).
 */
export function errorIn(body: unknown, fallback: string): ErrorBody {
  const parsed = errorSchema.safeParse(body);
  return parsed.success && parsed.data.error.message !== ""
    ? parsed.data.error
    : { code: "http_error", message: fallback };
}

/** {@link errorIn} of a failed answer's body; by default "Request failed (status).". */
export async function errorBodyOf(res: Response, fallback?: string): Promise<ErrorBody> {
  return errorIn(await res.json().catch(() => null), fallback ?? `Request failed (${res.status}).`);
}

/**
 * The message of a failed API answer (`{ error: { message } }`), or `fallback` when the
 * body is not JSON or carries none (by default "Request failed (status).").
 */
export async function errorOf(res: Response, fallback?: string): Promise<string> {
  return (await errorBodyOf(res, fallback)).message;
}
