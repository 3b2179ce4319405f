import { describe, expect, it } from "vitest";
import { fencedFile, imageTokens, judgeFile, sanitiseFileName } from "@/lib/files/judge";
import { makePng } from "../../support/files";

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...Buffer.from(p, "latin1")] : p)));

describe("[R261] judging a file by its content", () => {
  it("[R261] reads the size of PNG, GIF, JPEG and WebP from their headers", () => {
    expect(judgeFile(makePng(3, 2))).toEqual({
      kind: "image",
      mime: "image/png",
      width: 3,
      height: 2,
    });
    expect(judgeFile(bytes("GIF89a", [5, 0, 7, 0], [0, 0, 0]))).toMatchObject({
      mime: "image/gif",
      width: 5,
      height: 7,
    });
    // SOI, an APP0 segment, then SOF0 with height 10 and width 20.
    const jpeg = bytes(
      [0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00],
      [0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x0a, 0x00, 0x14, 0x03],
      new Array<number>(12).fill(0),
    );
    expect(judgeFile(jpeg)).toMatchObject({ mime: "image/jpeg", width: 20, height: 10 });
    const vp8x = bytes("RIFF", [0, 0, 0, 0], "WEBPVP8X", [10, 0, 0, 0], [0, 0, 0, 0]);
    const webp = new Uint8Array([...vp8x, 99, 0, 0, 49, 0, 0]);
    expect(judgeFile(webp)).toMatchObject({ mime: "image/webp", width: 100, height: 50 });
  });

  it("[R261] refuses a PNG signature without an image, binary data and empty files; knows a PDF by its header; takes UTF-8 text", () => {
    const html = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "<html></html>");
    expect(judgeFile(html)).toMatchObject({ kind: "refused" });
    // Its text is read by the PDF reader (tests/unit/files/pdf-reader.test.ts).
    expect(judgeFile(bytes("%PDF-1.4\n"))).toEqual({ kind: "pdf", mime: "application/pdf" });
    expect(judgeFile(bytes("My %PDF-1.4 notes\n"))).toMatchObject({ kind: "text" });
    expect(judgeFile(bytes([1, 2, 3, 0, 4]))).toMatchObject({ kind: "refused" });
    expect(judgeFile(bytes([0xc3, 0x28]))).toMatchObject({ kind: "refused" });
    expect(judgeFile(new Uint8Array(0))).toMatchObject({ kind: "refused" });
    expect(judgeFile(new TextEncoder().encode("\uFEFFconst π = 3;\n"))).toEqual({
      kind: "text",
      mime: "text/plain",
      text: "const π = 3;\n",
    });
  });

  it("[R261] sanitises file names", () => {
    expect(sanitiseFileName("../../etc/passwd")).toBe("passwd");
    expect(sanitiseFileName("C:\\Users\\me\\report.txt")).toBe("report.txt");
    expect(sanitiseFileName("\u202Egnp.exe")).toBe("gnp.exe");
    expect(sanitiseFileName("a\u0000b\u0007c.txt")).toBe("abc.txt");
    expect(sanitiseFileName("..")).toBe("file");
    expect(sanitiseFileName("   ")).toBe("file");
    const long = sanitiseFileName("x".repeat(500) + ".md");
    expect(Array.from(long)).toHaveLength(200);
    expect(long.endsWith(".md")).toBe(true);
  });
});

describe("[R265] what an attachment costs", () => {
  it("[R265] image tokens follow OpenAI's published tile formula", () => {
    // The documented examples: 1024×1024 → 765; 2048×4096 → 1105; a small image → one tile.
    expect(imageTokens(1024, 1024)).toBe(765);
    expect(imageTokens(2048, 4096)).toBe(1105);
    expect(imageTokens(64, 64)).toBe(255);
    expect(imageTokens(600, 400)).toBe(85 + 170 * 2);
  });

  it("[R266] a text file is fenced longer than any backtick run inside it", () => {
    expect(fencedFile("a.md", "```js\nx\n```")).toBe("File: a.md\n````\n```js\nx\n```\n````");
    expect(fencedFile("b.txt", "plain\n")).toBe("File: b.txt\n```\nplain\n```");
  });
});
