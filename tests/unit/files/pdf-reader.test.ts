import { describe, expect, it } from "vitest";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import { DEFAULT_PDF_LIMITS, type PdfLimits } from "@/lib/files/limits";
import { createPdfReader } from "@/lib/files/pdf-reader";
import { readFile } from "@/lib/files/read-file";
import { makeEncryptedPdf, makeManyPagesPdf, makePdf, makePdfBomb } from "../../support/pdf";

/** docs/spec.md "Attachments": a PDF read as its text, under limits (R277, R278). */

const MAX_TEXT = 100_000;
const read = (bytes: Uint8Array, limits: Partial<PdfLimits> = {}, maxText = MAX_TEXT) =>
  createPdfReader({ ...DEFAULT_PDF_LIMITS, ...limits })(bytes, maxText);

describe("PDF text", () => {
  it("[R277] reads the text of every page, in order, lines kept", async () => {
    const pdf = makePdf(["Quarterly report\nRevenue rose (a lot)", "Second page: the zebra"]);
    expect(await read(pdf)).toEqual({
      ok: true,
      text: "Quarterly report\nRevenue rose (a lot)\n\nSecond page: the zebra",
      pages: 2,
    });
  });

  it("[R277] readFile gives a PDF's text with the PDF's type, and other files as the judge does", async () => {
    const pdf = { read: createPdfReader(DEFAULT_PDF_LIMITS), maxTextChars: MAX_TEXT };
    expect(await readFile(makePdf(["Hello"]), pdf)).toEqual({
      kind: "text",
      mime: "application/pdf",
      text: "Hello",
    });
    expect(await readFile(new TextEncoder().encode("plain"), pdf)).toMatchObject({
      kind: "text",
      mime: "text/plain",
    });
    expect(await readFile(new Uint8Array([0, 1, 2]), pdf)).toMatchObject({
      kind: "refused",
      code: "unsupported_attachment",
    });
    expect(await readFile(makeEncryptedPdf(["x"], "secret"), pdf)).toMatchObject({
      kind: "refused",
      code: "pdf_encrypted",
    });
  });

  it("[R278] a PDF with a user password is pdf_encrypted (the fixture opens with its password)", async () => {
    const pdf = makeEncryptedPdf(["Top secret plans"], "secret");
    const doc = await getDocument({ data: pdf.slice(), password: "secret", verbosity: 0 }).promise;
    const items = (await (await doc.getPage(1)).getTextContent()).items;
    expect(items.map((i) => ("str" in i ? i.str : "")).join("")).toBe("Top secret plans");
    await doc.destroy();

    expect(await read(pdf)).toEqual({
      ok: false,
      code: "pdf_encrypted",
      reason: expect.stringContaining("password"),
    });
  });

  it("[R278] more pages than the limit is pdf_too_large, refused before any page is read", async () => {
    expect(await read(makeManyPagesPdf(5_000), { maxPages: 100 })).toEqual({
      ok: false,
      code: "pdf_too_large",
      reason: "The PDF has 5,000 pages; at most 100 are read.",
    });
    expect(await read(makePdf(["a", "b", "c"]), { maxPages: 3 })).toMatchObject({ ok: true });
  });

  it("[R278] more text than a file may hold is pdf_too_large", async () => {
    expect(await read(makePdf(["x".repeat(50)]), {}, 20)).toEqual({
      ok: false,
      code: "pdf_too_large",
      reason: "The PDF holds more than 20 characters of text.",
    });
  });

  it("[R278] a bomb is stopped at the time limit: the worker is terminated, the answer pdf_too_large", async () => {
    const bomb = makePdfBomb();
    expect(bomb.byteLength).toBeLessThan(64 * 1024);
    const result = await read(bomb, { timeoutMs: 1_000, memoryBytes: 8 * 2 ** 30 });
    expect(result).toEqual({
      ok: false,
      code: "pdf_too_large",
      reason: "Reading the PDF took longer than 1 s; it is too large or malformed.",
    });
  });

  it("[R278] a bomb is stopped at the memory limit when that comes first", async () => {
    const result = await read(makePdfBomb(), { timeoutMs: 120_000, memoryBytes: 64 * 2 ** 20 });
    expect(result).toEqual({
      ok: false,
      code: "pdf_too_large",
      reason: "Reading the PDF needed more than 64 MB of memory; it is too large or malformed.",
    });
  });

  it("[R278] a corrupt PDF, or one without text, is pdf_unreadable", async () => {
    const truncated = makePdf(["Hello"]).subarray(0, 40);
    expect(await read(truncated)).toMatchObject({
      ok: false,
      code: "pdf_unreadable",
      reason: expect.stringMatching(/^The file starts like a PDF but cannot be read/),
    });
    const junk = new TextEncoder().encode(`%PDF-1.7\n${"\u0001\u0002garbage ".repeat(200)}`);
    expect(await read(junk)).toMatchObject({ ok: false, code: "pdf_unreadable" });
    expect(await read(makePdf([""]))).toEqual({
      ok: false,
      code: "pdf_unreadable",
      reason:
        "The PDF holds no text (a scan?): only the text of a PDF is read, not images of its pages.",
    });
  });

  it("[R278] one PDF is read at a time, and a bomb does not stop the next", async () => {
    const reader = createPdfReader({ ...DEFAULT_PDF_LIMITS, timeoutMs: 1_000 });
    const [bomb, after] = await Promise.all([
      reader(makePdfBomb(), MAX_TEXT),
      reader(makePdf(["still reading"]), MAX_TEXT),
    ]);
    expect(bomb).toMatchObject({ ok: false, code: "pdf_too_large" });
    expect(after).toEqual({ ok: true, text: "still reading", pages: 1 });
  });
});
