import { describe, expect, it } from "vitest";
import { returnTo } from "@/lib/server/return-to";

/** What a browser would open for a `Location` value served by http://127.0.0.1:3000. */
function landsOn(location: string): string {
  return new URL(location, "http://127.0.0.1:3000").origin;
}

describe("[R140] post-sign-in destinations", () => {
  it("[R140] the reviewer's payloads go home, and nothing that leaves the site survives", () => {
    const payloads = [
      "/\t/evil.example/x",
      "/\t\\evil.example/x",
      "/\\evil.example",
      "\\/evil.example",
      "//evil.example",
      "/\r\n/evil.example/x",
      "/\r\nSet-Cookie: a=b",
      "\n//evil.example",
      " //evil.example",
      "/%09/evil.example",
      "https://evil.example/",
      "http://127.0.0.1:3000/",
      "javascript:alert(1)",
      "/api/sessions",
      "/sign-in",
      "/s/x/../../api/keys",
      "",
    ];
    for (const p of payloads) {
      const target = returnTo(p);
      expect(target, JSON.stringify(p)).toBe("/");
    }
  });

  it("[R140] a known page comes back, with its query, never with a control character", () => {
    expect(returnTo("/s/01JABCDEF?node=01JXYZ")).toBe("/s/01JABCDEF?node=01JXYZ");
    expect(returnTo("/account")).toBe("/account");
    expect(returnTo("/admin")).toBe("/admin");
    expect(returnTo(["/import", "/admin"])).toBe("/import");
    expect(returnTo(undefined)).toBe("/");
    const withCrLf = returnTo("/s/01JABC?x=\r\n%0D%0Aa");
    expect(withCrLf).not.toMatch(/[\r\n\t]/);
    for (const t of [withCrLf, returnTo("/s/01J\tABC")])
      expect(landsOn(t)).toBe("http://127.0.0.1:3000");
  });
});
