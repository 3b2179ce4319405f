import type { z } from "zod";

/**
 * The body of a successful API answer, parsed with the schema the server answers with
 * (lib/http/answers.ts, the same one the OpenAPI document is generated from), never cast.
 * A body that does not match (a server of another version, a proxy's page) throws an
 * Error naming the first field that differs, instead of reaching the page as a wrong type.
 */
export async function readAnswer<S extends z.ZodType>(
  res: Response,
  schema: S,
): Promise<z.output<S>> {
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw new Error(`The server's answer was not JSON (${res.status}).`);
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
  throw new Error(`The server's answer was not understood${where}: ${issue?.message ?? "?"}.`);
}
