/** The error body every API route answers with (docs/api.md). */
interface ApiError {
  readonly error?: { readonly code?: string; readonly message?: string };
}

/**
 * The message of a failed API answer (`{ error: { message } }`), or `fallback` when the
 * body is not JSON or carries none (by default "Request failed (status).").
 */
export async function errorOf(res: Response, fallback?: string): Promise<string> {
  const otherwise = fallback ?? `Request failed (${res.status}).`;
  try {
    const body = (await res.json()) as ApiError | null;
    const message = body?.error?.message;
    return typeof message === "string" && message !== "" ? message : otherwise;
  } catch {
    return otherwise;
  }
}
