import { databaseKindOf } from "../config/env";

/**
 * Turns a database failure at start into one line an operator can act on, instead of a
 * stack-trace wall. Never echoes a password from the URL.
 */
export function describeStartupError(error: unknown, url: string): string {
  if (error instanceof Error && error.name === "DatabaseInUseError") return error.message;
  const text = errorText(error);
  if (/P2021|no such table|relation .* does not exist/i.test(text)) {
    return `the database at ${safeLocation(url)} has no Spindle tables yet; run \`npm run db:deploy\` (\`npm start\` does it for you)`;
  }
  if (databaseKindOf(url) === "postgresql") {
    const where = safeLocation(url);
    if (
      /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT|ECONNRESET|timeout|Can't reach database server/i.test(
        text,
      )
    ) {
      return `cannot reach PostgreSQL at ${where} (${firstMatch(text, /(ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT|ECONNRESET|timeout[^\n]*|no answer)/i)}); is the server running and DATABASE_URL right?`;
    }
    if (/does not exist/i.test(text)) {
      return `PostgreSQL at ${where}: ${firstLine(text)}; create it first (createdb)`;
    }
    if (/password authentication|no pg_hba|role .* does not exist/i.test(text)) {
      return `PostgreSQL at ${where} refused the login: ${firstLine(text)}`;
    }
    return `PostgreSQL at ${where}: ${firstLine(text)}`;
  }
  if (/SQLITE_CANTOPEN|unable to open|EACCES|EROFS/i.test(text)) {
    return `cannot open the SQLite database ${url}: ${firstLine(text)}`;
  }
  return `database error (${url}): ${firstLine(text)}`;
}

function errorText(error: unknown): string {
  if (error instanceof AggregateError) {
    return [error.message, ...error.errors.map(errorText)].join("\n");
  }
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    const cause = error.cause === undefined ? "" : `\n${errorText(error.cause)}`;
    return `${typeof code === "string" ? `${code} ` : ""}${error.message}${cause}`;
  }
  return String(error);
}

function firstLine(text: string): string {
  return (
    text
      .split("\n")
      .find((l) => l.trim() !== "")
      ?.trim() ?? "unknown error"
  );
}

function firstMatch(text: string, re: RegExp): string {
  return re.exec(text)?.[1] ?? "no answer";
}

function safeLocation(url: string): string {
  if (url.startsWith("file:")) return url;
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || "5432"}${u.pathname}`;
  } catch {
    return "the configured host";
  }
}
