import { judgeFile, type ReadableFile } from "./judge";
import type { PdfErrorCode, PdfReader } from "./pdf-reader";

/** A file the server does not take, with the catalogue code to answer and why. */
export interface FileRefusal {
  readonly kind: "refused";
  readonly code: "unsupported_attachment" | PdfErrorCode;
  readonly reason: string;
}

/** How PDFs are read: the reader, and the most text one may yield. */
export interface PdfReading {
  readonly read: PdfReader;
  /** A PDF's text counts like a text file: at most as many characters as a file may have bytes. */
  readonly maxTextChars: number;
}

/**
 * A file as prompts will read it, judged by its content (R261): images and text as the judge
 * finds them, a PDF as the text pdf.js reads from it (R277) — or why it is refused. The
 * upload and the ledger import read every file through here.
 */
export async function readFile(
  bytes: Uint8Array,
  pdf: PdfReading,
): Promise<ReadableFile | FileRefusal> {
  const judged = judgeFile(bytes);
  switch (judged.kind) {
    case "image":
    case "text":
      return judged;
    case "refused":
      return { kind: "refused", code: "unsupported_attachment", reason: judged.reason };
    case "pdf": {
      const read = await pdf.read(bytes, pdf.maxTextChars);
      return read.ok
        ? { kind: "text", mime: "application/pdf", text: read.text }
        : { kind: "refused", code: read.code, reason: read.reason };
    }
  }
}
