import { describe, expect, it } from "vitest";
import { decodeListCursor, encodeListCursor } from "@/lib/store/list-cursor";

describe("[R108] the session list's cursor", () => {
  it("[R108] round-trips the last row's position", () => {
    const row = { updatedAt: "2026-03-04T05:06:07.089Z", id: "01JABCDEF0123456789XYZABCD" };
    const cursor = encodeListCursor(row);
    expect(cursor).toMatch(/^[0-9a-z]+\.[0-9A-Za-z_-]+$/);
    const back = decodeListCursor(cursor);
    expect(back.updatedAt.toISOString()).toBe(row.updatedAt);
    expect(back.id).toBe(row.id);
  });

  it("[R108] anything else is invalid_request, never a crash", () => {
    for (const raw of [
      "",
      ".",
      "abc",
      "zz.",
      ".01JABC",
      "1.a b",
      "1.%27;DROP",
      "zzzzzzzzzzzz.x",
      "-1.x",
      "01JABCDEF0123456789XYZABCD",
    ]) {
      expect(() => decodeListCursor(raw), raw).toThrow(
        expect.objectContaining({ code: "invalid_request" }),
      );
    }
  });
});
