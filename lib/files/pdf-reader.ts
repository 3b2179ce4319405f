import { Worker } from "node:worker_threads";
import type * as Pdfjs from "pdfjs-dist/legacy/build/pdf.mjs";
import type { ErrorCode } from "../engine/errors";
import type { PdfLimits } from "./limits";

/**
 * The text of a PDF (docs/spec.md R277, R278), read with pdfjs-dist's Node build in a worker
 * thread. pdf.js parses synchronously in long stretches, so a limit checked from inside it
 * could not stop a bomb: the worker is terminated from outside when it passes the time limit
 * or its memory grows past the limit, and one PDF is read at a time, so the limits bound
 * what all uploads together can cost. Fonts are parsed for their character maps only (no
 * font faces, no `eval`, no canvas); nothing is rendered.
 */

/** The catalogue codes a PDF is refused with (422). */
export type PdfErrorCode = Extract<ErrorCode, "pdf_encrypted" | "pdf_too_large" | "pdf_unreadable">;

export type PdfText =
  | { readonly ok: true; readonly text: string; readonly pages: number }
  | { readonly ok: false; readonly code: PdfErrorCode; readonly reason: string };

/**
 * Reads the text of `bytes`, refusing it past `maxTextChars` characters. Rejects only when
 * the server cannot read PDFs at all (pdfjs-dist missing): that is the server's fault.
 */
export type PdfReader = (bytes: Uint8Array, maxTextChars: number) => Promise<PdfText>;

interface WorkerJob {
  readonly data: Uint8Array;
  readonly maxPages: number;
  readonly maxTextChars: number;
}

type WorkerReply =
  | { readonly ok: true; readonly text: string; readonly pages: number }
  | {
      readonly ok: false;
      readonly failure: "encrypted" | "pages" | "text" | "corrupt" | "unavailable";
      readonly pages?: number;
      readonly detail?: string;
    };

/**
 * The worker's whole work. It runs in the worker from its source text (Function#toString),
 * so it may use only its arguments and the language's globals: no imports, no module-level
 * names — a bundler would rewrite those, and they do not exist in the worker. The tests run
 * it for real, so a slip here fails them.
 */
async function readInWorker(
  pdfjs: typeof Pdfjs,
  root: string,
  job: WorkerJob,
): Promise<WorkerReply> {
  try {
    const doc = await pdfjs.getDocument({
      data: job.data,
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      enableXfa: false,
      stopAtErrors: false,
      verbosity: 0,
      cMapUrl: `${root}/cmaps/`,
      cMapPacked: true,
      standardFontDataUrl: `${root}/standard_fonts/`,
    }).promise;
    if (doc.numPages > job.maxPages) return { ok: false, failure: "pages", pages: doc.numPages };
    let text = "";
    for (let n = 1; n <= doc.numPages; n += 1) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      let pageText = "";
      for (const item of content.items) {
        if ("str" in item) pageText += item.hasEOL ? `${item.str}\n` : item.str;
      }
      page.cleanup();
      text += (n > 1 ? "\n\n" : "") + pageText.trimEnd();
      if (text.length > job.maxTextChars) return { ok: false, failure: "text" };
    }
    const pages = doc.numPages;
    await doc.destroy();
    return { ok: true, text, pages };
  } catch (e) {
    const name = e instanceof Error ? e.name : "";
    const detail = e instanceof Error ? e.message : String(e);
    return { ok: false, failure: name === "PasswordException" ? "encrypted" : "corrupt", detail };
  }
}

/**
 * The worker's entry, a CommonJS script (`eval: true`), so no bundler rewrites it: it finds
 * pdfjs-dist from the working directory — where `npm start` and Next itself run — and posts
 * one {@link WorkerReply}.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { dirname, join } = require("node:path");
const { pathToFileURL } = require("node:url");
const readInWorker = ${readInWorker.toString()};
new Promise((resolve) => resolve(dirname(require.resolve("pdfjs-dist/package.json"))))
  .then((root) =>
    import(pathToFileURL(join(root, "legacy/build/pdf.mjs")).href).then((pdfjs) => [pdfjs, root]),
  )
  .then(
    ([pdfjs, root]) => readInWorker(pdfjs, root, workerData),
    (e) => ({ ok: false, failure: "unavailable", detail: String(e) }),
  )
  .then((reply) => parentPort.postMessage(reply));
`;

/** How often the process's memory is checked while a PDF is read. */
const MEMORY_CHECK_MS = 50;

/**
 * Control characters but tab, line feed, carriage return and form feed: a PDF's text may
 * carry them, no prompt wants them, and PostgreSQL refuses NUL in text.
 */
const CONTROLS = /[^\P{Cc}\t\n\r\f]/gu;

function refused(code: PdfErrorCode, reason: string): PdfText {
  return { ok: false, code, reason };
}

function outcome(reply: WorkerReply, limits: PdfLimits, maxTextChars: number): PdfText {
  if (reply.ok) {
    const text = reply.text.replace(CONTROLS, "");
    return text.trim() === ""
      ? refused(
          "pdf_unreadable",
          "The PDF holds no text (a scan?): only the text of a PDF is read, not images of its pages.",
        )
      : { ok: true, text, pages: reply.pages };
  }
  switch (reply.failure) {
    case "encrypted":
      return refused(
        "pdf_encrypted",
        "The PDF is protected by a password; save a copy without the password and upload that.",
      );
    case "pages":
      return refused(
        "pdf_too_large",
        `The PDF has ${(reply.pages ?? 0).toLocaleString("en")} pages; at most ${limits.maxPages.toLocaleString("en")} are read.`,
      );
    case "text":
      return refused(
        "pdf_too_large",
        `The PDF holds more than ${maxTextChars.toLocaleString("en")} characters of text.`,
      );
    case "corrupt":
      return refused(
        "pdf_unreadable",
        `The file starts like a PDF but cannot be read${reply.detail ? ` (${reply.detail.slice(0, 200)})` : ""}.`,
      );
    case "unavailable":
      throw new Error(`PDF reading is unavailable on this server: ${reply.detail ?? ""}`);
  }
}

/** Reads one PDF in its own worker, terminated at the first limit it passes. */
function readOnce(bytes: Uint8Array, maxTextChars: number, limits: PdfLimits): Promise<PdfText> {
  return new Promise((resolve, reject) => {
    const data = bytes.slice();
    const job: WorkerJob = { data, maxPages: limits.maxPages, maxTextChars };
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: job,
      transferList: [data.buffer],
      // Not the parent's loaders (tsx, vitest): the worker runs plain JavaScript.
      execArgv: [],
      resourceLimits: {
        maxOldGenerationSizeMb: Math.max(16, Math.floor(limits.memoryBytes / 2 ** 21)),
        maxYoungGenerationSizeMb: 16,
        stackSizeMb: 4,
      },
    });
    const rssAtStart = process.memoryUsage.rss();
    let done = false;
    const finish = (settle: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearInterval(watch);
      void worker.terminate();
      settle();
    };
    const tooLarge = (why: string) =>
      finish(() =>
        resolve(refused("pdf_too_large", `Reading the PDF ${why}; it is too large or malformed.`)),
      );
    const seconds = (limits.timeoutMs / 1000).toLocaleString("en");
    const megabytes = Math.round(limits.memoryBytes / 2 ** 20).toLocaleString("en");
    const timer = setTimeout(() => tooLarge(`took longer than ${seconds} s`), limits.timeoutMs);
    // A decompression bomb grows buffers outside the worker's capped heap: the process's
    // resident size is what shows it.
    const watch = setInterval(() => {
      if (process.memoryUsage.rss() - rssAtStart > limits.memoryBytes) {
        tooLarge(`needed more than ${megabytes} MB of memory`);
      }
    }, MEMORY_CHECK_MS);
    worker.on("message", (reply: WorkerReply) => {
      finish(() => {
        try {
          resolve(outcome(reply, limits, maxTextChars));
        } catch (e) {
          reject(e instanceof Error ? e : new Error(String(e)));
        }
      });
    });
    worker.on("error", (e: Error & { code?: string }) => {
      if (e.code === "ERR_WORKER_OUT_OF_MEMORY")
        tooLarge(`needed more than ${megabytes} MB of memory`);
      else finish(() => resolve(refused("pdf_unreadable", "The PDF could not be read.")));
    });
    worker.on("exit", () =>
      finish(() => resolve(refused("pdf_unreadable", "The PDF could not be read."))),
    );
  });
}

/**
 * A {@link PdfReader} under `limits` that reads one PDF at a time: the next waits for the one
 * before it, so the memory limit holds for the server, not per upload.
 */
export function createPdfReader(limits: PdfLimits): PdfReader {
  let last: Promise<unknown> = Promise.resolve();
  return (bytes, maxTextChars) => {
    const next = last.then(() => readOnce(bytes, maxTextChars, limits));
    last = next.catch(() => undefined);
    return next;
  };
}
