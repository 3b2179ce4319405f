import { errorSchema } from "@/lib/http/answers";

/**
 * The message of a failed API answer (`{ error: { message } }`), or `fallback` when the
 * body is not JSON or carries none (by default "Request failed (status).").
 */
export async function errorOf(res: Response, fallback?: string): Promise<string> {
  const otherwise = fallback ?? `Request failed (${res.status}).`;
  try {
    const body = errorSchema.safeParse(await res.json());
    return body.success && body.data.error.message !== "" ? body.data.error.message : otherwise;
  } catch {
    return otherwise;
  }
}
