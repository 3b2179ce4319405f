import { describe, expect, it } from "vitest";
import { parseConfig, ConfigError } from "@/lib/config/env";
import { describeStartupError } from "@/lib/db/startup-error";

describe("configuration", () => {
  it("[R80] listens on loopback with accounts on by default", () => {
    const c = parseConfig({});
    expect(c.host).toBe("127.0.0.1");
    expect(c.auth).toBe(true);
    expect(c.allowSignup).toBe(false);
  });

  it("[R80] single-user mode is refused on any address but loopback", () => {
    for (const HOST of ["127.0.0.1", "localhost", "::1", "[::1]"]) {
      expect(parseConfig({ SPINDLE_AUTH: "off", HOST }).auth).toBe(false);
    }
    for (const HOST of ["0.0.0.0", "192.168.1.5", "::", "spindle.example"]) {
      expect(() => parseConfig({ SPINDLE_AUTH: "off", HOST })).toThrow(
        /^SPINDLE_AUTH is "off" .* but HOST is .*loopback/,
      );
    }
    expect(parseConfig({ HOST: "0.0.0.0" }).auth).toBe(true);
    expect(() => parseConfig({ SPINDLE_AUTH: "maybe" })).toThrow(/SPINDLE_AUTH/);
  });

  it("defaults to SQLite under ./data and the offline model", () => {
    const c = parseConfig({});
    expect(c.databaseUrl).toBe("file:./data/spindle.db");
    expect(c.databaseKind).toBe("sqlite");
    expect(c.openai).toBeUndefined();
    expect(c.port).toBe(3000);
  });

  it("recognises PostgreSQL URLs", () => {
    expect(parseConfig({ DATABASE_URL: "postgresql://u@localhost:5432/db" }).databaseKind).toBe(
      "postgresql",
    );
    expect(parseConfig({ DATABASE_URL: "postgres://u@localhost/db" }).databaseKind).toBe(
      "postgresql",
    );
  });

  it("names the variable and the problem for a malformed DATABASE_URL", () => {
    expect(() => parseConfig({ DATABASE_URL: "mysql://x" })).toThrow(ConfigError);
    try {
      parseConfig({ DATABASE_URL: "mysql://x" });
    } catch (e) {
      expect((e as ConfigError).variable).toBe("DATABASE_URL");
      expect((e as Error).message).toMatch(/^DATABASE_URL must be .*got "mysql:\/\/x"/);
    }
  });

  it("rejects a non-http OPENAI_BASE_URL and a bad PORT", () => {
    expect(() => parseConfig({ OPENAI_BASE_URL: "ftp://x" })).toThrow(
      /OPENAI_BASE_URL must be an http/,
    );
    expect(() => parseConfig({ PORT: "99999" })).toThrow(/PORT/);
    expect(() => parseConfig({ PORT: "abc" })).toThrow(/PORT must be a whole number/);
  });

  it("never echoes the API key in an error", () => {
    expect(() => parseConfig({ OPENAI_API_KEY: "   " })).not.toThrow();
    const c = parseConfig({ OPENAI_API_KEY: "sk-secret" });
    expect(c.openai?.baseUrl).toBe("https://api.openai.com/v1");
  });

  it("treats empty variables as unset", () => {
    expect(parseConfig({ DATABASE_URL: "", OPENAI_BASE_URL: "" }).openai).toBeUndefined();
  });

  it("describes an unreachable PostgreSQL in one line without the password", () => {
    const e = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), {
      code: "ECONNREFUSED",
    });
    const line = describeStartupError(e, "postgresql://u:hunter2@127.0.0.1:1/db");
    expect(line).toMatch(/^cannot reach PostgreSQL at 127\.0\.0\.1:1\/db/);
    expect(line).not.toContain("hunter2");
    expect(line).not.toContain("\n");
  });
});
