import { describe, expect, it } from "vitest";
import { attachment, fileDisposition } from "@/lib/http/attachment";

describe("[R96] export filenames", () => {
  it("[R96] keep the title readable and the plain filename safe ASCII", () => {
    expect(attachment("Weekend in Lisbon", "md")).toBe(
      "attachment; filename=\"Weekend in Lisbon.md\"; filename*=UTF-8''Weekend%20in%20Lisbon.md",
    );
    expect(attachment('a"b\r\nSet-Cookie: x=1', "md")).toBe(
      "attachment; filename=\"a b Set-Cookie x_1.md\"; filename*=UTF-8''a%20b%20Set-Cookie%20x%3D1.md",
    );
    expect(attachment("../../etc/passwd", "json")).toMatch(
      /^attachment; filename="etc passwd\.json"/,
    );
    expect(attachment("   ", "md")).toMatch(
      /^attachment; filename="session\.md"; filename\*=UTF-8''session\.md$/,
    );
    expect(attachment("日本語", "md")).toBe(
      "attachment; filename=\"session.md\"; filename*=UTF-8''%E6%97%A5%E6%9C%AC%E8%AA%9E.md",
    );
  });

  it("[R96] never throw on a lone surrogate or cut inside a pair", () => {
    expect(attachment("bad \ud800 title", "md")).toMatch(/filename="bad title\.md"/);
    const emoji = `${"x".repeat(79)}😀😀`;
    expect(() => attachment(emoji, "md")).not.toThrow();
    expect(attachment(emoji, "md")).toContain("%F0%9F%98%80.md");
  });
});

describe("[R269] a served attachment's file name", () => {
  it("[R269] keeps its extension, and the image types inline", () => {
    expect(fileDisposition("report.md", false)).toBe(
      "attachment; filename=\"report.md\"; filename*=UTF-8''report.md",
    );
    expect(fileDisposition("cat.png", true)).toBe(
      "inline; filename=\"cat.png\"; filename*=UTF-8''cat.png",
    );
  });

  it("[R269] a name without an ASCII extension is kept whole, a .txt inside it too", () => {
    expect(fileDisposition("README", false)).toBe(
      "attachment; filename=\"README\"; filename*=UTF-8''README",
    );
    expect(fileDisposition("notes.txt.日本", false)).toBe(
      "attachment; filename=\"notes.txt\"; filename*=UTF-8''notes.txt.%E6%97%A5%E6%9C%AC",
    );
    expect(fileDisposition("a.txt.b.txt.日本", false)).toBe(
      "attachment; filename=\"a.txt.b.txt\"; filename*=UTF-8''a.txt.b.txt.%E6%97%A5%E6%9C%AC",
    );
  });
});
