import { createHash } from "node:crypto";
import { afterAll, beforeEach, expect, it } from "vitest";
import type { AttachmentRef, LedgerNode } from "@/lib/engine/types";
import { imageTokens } from "@/lib/files/judge";
import { countTokens } from "@/lib/llm/tokens";
import { services } from "@/lib/server/services";
import { startRecordingServer, type RecordedRequest } from "../support/recording-server";
import { fileForm, makePng } from "../support/files";
import { makeEncryptedPdf, makeManyPagesPdf, makePdf, makePdfBomb } from "../support/pdf";
import { describeEachDatabase } from "./support/databases";
import { useApp, type Routes } from "./support/routes";
import { expectSchema } from "./support/openapi-schema";

/**
 * Attachments (docs/spec.md "Attachments", R260–R279), through the route handlers against the
 * recording server: what an upload stores, what a turn sends the model, and every bad input
 * of issue 24 answered 4xx with nothing half-written.
 */

const server = await startRecordingServer({ models: ["gpt-4o-mini"] });
afterAll(() => server.close());

const FILE_CAP = 64 * 1024;
const MESSAGE_CAP = 100 * 1024;
const PDF_PAGES = 20;

const PDF_PAGE_TEXTS = ["Quarterly report\nRevenue rose in the kestrel region", "Page two: costs"];
const PDF_TEXT = "Quarterly report\nRevenue rose in the kestrel region\n\nPage two: costs";

const TS_SOURCE = [
  "export function add(a: number, b: number): number {",
  "  // ```not a fence breaker```",
  "  return a + b;",
  "}",
  "",
].join("\n");

interface Part {
  type: string;
  text?: string;
  image_url?: { url: string };
}

/** The chat request's last user message content as parts (a plain string is one text part). */
function lastUserParts(request: RecordedRequest | undefined): Part[] {
  const messages = (request?.body?.["messages"] ?? []) as { role: string; content: unknown }[];
  const last = [...messages].reverse().find((m) => m.role === "user");
  if (!last) return [];
  return typeof last.content === "string"
    ? [{ type: "text", text: last.content }]
    : (last.content as Part[]);
}

/** Every image part and all text of a chat request. */
function everything(request: RecordedRequest | undefined) {
  const messages = (request?.body?.["messages"] ?? []) as { content: unknown }[];
  const parts = messages.flatMap((m) =>
    typeof m.content === "string" ? [{ type: "text", text: m.content }] : (m.content as Part[]),
  );
  return {
    images: parts.filter((p) => p.type === "image_url"),
    text: parts.map((p) => p.text ?? "").join("\n"),
  };
}

describeEachDatabase("[R260] attachments", (kind) => {
  let routes: Routes;
  useApp(
    kind,
    {
      SPINDLE_AUTH: "off",
      OPENAI_BASE_URL: server.url,
      SPINDLE_MODEL: "gpt-4o-mini",
      SPINDLE_MAX_ATTACHMENT_BYTES: String(FILE_CAP),
      SPINDLE_MAX_MESSAGE_ATTACHMENT_BYTES: String(MESSAGE_CAP),
      SPINDLE_MAX_PDF_PAGES: String(PDF_PAGES),
      // Long enough for a real PDF on a busy machine; the bomb is stopped by it or sooner.
      SPINDLE_PDF_TIMEOUT_MS: "5000",
    },
    (app) => ({ routes } = app),
  );
  const call = (...args: Parameters<Routes["call"]>) => routes.call(...args);
  beforeEach(() => server.reset());

  const newSession = async () =>
    (await call("POST", "/api/sessions", { title: "Files" })).json["id"] as string;
  const upload = (id: string, bytes: Uint8Array | string, name: string) =>
    call("POST", `/api/sessions/${id}/attachments`, undefined, { form: fileForm(bytes, name) });
  const nodeCount = async (id: string) =>
    ((await call("GET", `/api/sessions/${id}/nodes`)).json["nodes"] as unknown[]).length;
  const blobCount = async (id: string) =>
    (await services()).store.blobCount(id as Parameters<typeof services>[never]);

  it("[R262] an upload answers 201 {id, name, mime, size, sha256} judged by content; a turn sends the PNG as an image part and the source inline", async () => {
    const id = await newSession();
    const png = makePng(600, 400);
    const up = await upload(id, png, "screen.png");
    expect(up.status, up.text).toBe(201);
    expectSchema("Attachment", up.json);
    expect(up.json).toMatchObject({
      name: "screen.png",
      mime: "image/png",
      size: png.byteLength,
      sha256: createHash("sha256").update(png).digest("hex"),
      tokens: imageTokens(600, 400),
      width: 600,
      height: 400,
    });
    // Claimed to be a PNG by its name, judged text by its content.
    const ts = await upload(id, TS_SOURCE, "add.png");
    expect(ts.status).toBe(201);
    expect(ts.json).toMatchObject({ name: "add.png", mime: "text/plain" });

    const turn = await call("POST", `/api/sessions/${id}/turns`, {
      content: "What do these show?",
      attachments: [up.json["id"], ts.json["id"]],
      stream: false,
    });
    expect(turn.status, turn.text).toBe(200);
    const user = turn.json["user"] as LedgerNode;
    const refs = user.metadata["attachments"] as AttachmentRef[];
    expect(refs.map((a) => [a.name, a.mime, a.size])).toEqual([
      ["screen.png", "image/png", png.byteLength],
      ["add.png", "text/plain", Buffer.byteLength(TS_SOURCE)],
    ]);
    // The node's cost includes its files (the meter and the compaction budget read it).
    expect(user.tokenCount).toBeGreaterThan(refs[0]!.tokens + refs[1]!.tokens);

    const parts = lastUserParts(server.chatRequests.at(-1));
    const images = parts.filter((p) => p.type === "image_url");
    expect(images).toHaveLength(1);
    const url = images[0]?.image_url?.url ?? "";
    expect(url.startsWith("data:image/png;base64,")).toBe(true);
    expect(Buffer.from(url.split(",")[1] ?? "", "base64").equals(Buffer.from(png))).toBe(true);
    const text = parts.find((p) => p.type === "text")?.text ?? "";
    expect(text).toContain("What do these show?");
    expect(text).toContain("File: add.png\n````\n" + TS_SOURCE + "````");

    // The context meter counts them.
    const context = await call("GET", `/api/sessions/${id}/context`);
    const rendered = (context.json["messages"] as { id: string; tokenCount: number }[]).find(
      (m) => m.id === user.id,
    );
    expect(rendered?.tokenCount).toBe(user.tokenCount);
  });

  it("[R268] a reply after a compaction that covers the message carries none of its files", async () => {
    const id = await newSession();
    await call("PATCH", `/api/sessions/${id}`, {
      settings: { keepRecentTokens: 60, autoCompact: false },
    });
    const png = (await upload(id, makePng(64, 64), "tiny.png")).json["id"];
    const src = (await upload(id, TS_SOURCE, "add.ts")).json["id"];
    const first = await call("POST", `/api/sessions/${id}/turns`, {
      content: "Here are the files.",
      attachments: [png, src],
      stream: false,
    });
    expect(first.status, first.text).toBe(200);
    for (let i = 0; i < 3; i += 1) {
      await call("POST", `/api/sessions/${id}/turns`, {
        content: `Follow-up question number ${i} about the code.`,
        stream: false,
      });
    }
    server.enqueue({ kind: "reply", text: "The user shared add.ts and a screenshot." });
    const compacted = await call("POST", `/api/sessions/${id}/compact`);
    expect(compacted.status, compacted.text).toBe(200);
    const summary = compacted.json["summary"] as { metadata: { covers_ids: string[] } } | null;
    expect(summary?.metadata.covers_ids).toContain((first.json["user"] as LedgerNode).id);
    // The summariser read the text file and a note for the image, never the pixels.
    const summarising = everything(server.chatRequests.at(-1));
    expect(summarising.images).toHaveLength(0);
    expect(summarising.text).toContain("return a + b;");
    expect(summarising.text).toContain("[Image attached: tiny.png, 64×64]");

    server.reset();
    const after = await call("POST", `/api/sessions/${id}/turns`, {
      content: "And now?",
      stream: false,
    });
    expect(after.status, after.text).toBe(200);
    const sent = everything(server.chatRequests.at(-1));
    expect(sent.images).toHaveLength(0);
    expect(sent.text).not.toContain("File: add.ts");
  });

  it("[R261] a type that lies is judged by content: a PNG header on HTML and binary junk are 415 with the accepted list; an SVG with script is stored as text", async () => {
    const id = await newSession();
    const fake = new Uint8Array([
      ...makePng(1, 1).subarray(0, 8),
      ...new TextEncoder().encode("<html><script>alert(1)</script></html>"),
    ]);
    for (const [bytes, name] of [
      [fake, "cat.png"],
      [new Uint8Array([0, 1, 2, 3, 255, 254, 0, 7, 8]), "blob.bin"],
    ] as const) {
      const res = await upload(id, bytes, name);
      expect([name, res.status]).toEqual([name, 415]);
      expect(res.json).toMatchObject({
        error: {
          code: "unsupported_attachment",
          message: expect.stringContaining("WebP and GIF images, PDF documents"),
        },
      });
    }
    expect(await blobCount(id)).toBe(0);

    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    const stored = await upload(id, svg, "logo.svg");
    expect(stored.status).toBe(201);
    expect(stored.json["mime"]).toBe("text/plain");
    const served = await call("GET", `/api/sessions/${id}/attachments/${stored.json["id"]}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("content-disposition")).toMatch(/^attachment; filename="logo\.svg"/);
    expect(served.text).toBe(svg);
  });

  it("[R277] the request for a message with a PNG, a .ts file and a PDF carries the image part and both texts inline; the PDF downloads as itself", async () => {
    const id = await newSession();
    const png = makePng(20, 10);
    const pdf = makePdf(PDF_PAGE_TEXTS);
    const img = await upload(id, png, "chart.png");
    const src = await upload(id, TS_SOURCE, "add.ts");
    const doc = await upload(id, pdf, "report.pdf");
    expect(doc.status, doc.text).toBe(201);
    expectSchema("Attachment", doc.json);
    const fenced = "File: report.pdf\n```\n" + PDF_TEXT + "\n```";
    expect(doc.json).toMatchObject({
      name: "report.pdf",
      mime: "application/pdf",
      size: pdf.byteLength,
      sha256: createHash("sha256").update(pdf).digest("hex"),
      // Priced as the text the model reads, like a text file.
      tokens: countTokens(fenced, "gpt-4o-mini"),
    });
    expect(doc.json["width"]).toBeUndefined();

    const turn = await call("POST", `/api/sessions/${id}/turns`, {
      content: "Summarise these",
      attachments: [img.json["id"], src.json["id"], doc.json["id"]],
      stream: false,
    });
    expect(turn.status, turn.text).toBe(200);
    const parts = lastUserParts(server.chatRequests.at(-1));
    const images = parts.filter((p) => p.type === "image_url");
    expect(images).toHaveLength(1);
    const url = images[0]?.image_url?.url ?? "";
    expect(Buffer.from(url.split(",")[1] ?? "", "base64").equals(Buffer.from(png))).toBe(true);
    const text = parts.find((p) => p.type === "text")?.text ?? "";
    expect(text).toContain("File: add.ts\n````\n" + TS_SOURCE + "````");
    expect(text).toContain(fenced);

    const served = await routes.raw("GET", `/api/sessions/${id}/attachments/${doc.json["id"]}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("application/pdf");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("content-disposition")).toMatch(
      /^attachment; filename="report\.pdf"/,
    );
    expect(Buffer.from(await served.arrayBuffer()).equals(Buffer.from(pdf))).toBe(true);
  });

  it("[R278] an encrypted PDF, a PDF bomb, too many pages and a corrupt PDF are each a 422 with their code, and nothing is written", async () => {
    const id = await newSession();
    for (const [bytes, name, code, message] of [
      [makeEncryptedPdf(["secret"], "pw"), "locked.pdf", "pdf_encrypted", "password"],
      [makePdfBomb(), "bomb.pdf", "pdf_too_large", "too large or malformed"],
      [makeManyPagesPdf(5_000), "long.pdf", "pdf_too_large", `at most ${PDF_PAGES} are read`],
      [
        new TextEncoder().encode("%PDF-1.7\n%âãÏÓ\n1 0 obj\n"),
        "paper.pdf",
        "pdf_unreadable",
        "cannot be read",
      ],
      [makePdf([""]), "scan.pdf", "pdf_unreadable", "no text"],
    ] as const) {
      const res = await upload(id, bytes, name);
      expect([name, res.status, res.json]).toEqual([
        name,
        422,
        { error: { code, message: expect.stringContaining(message) } },
      ]);
    }
    expect(await blobCount(id)).toBe(0);
    // The server still reads the next PDF.
    expect((await upload(id, makePdf(["after the bomb"]), "ok.pdf")).status).toBe(201);
  });

  it("[R261] a file name with ../, NUL, control and right-to-left override characters is stored sanitised", async () => {
    const id = await newSession();
    const res = await upload(id, "hello", "../../etc/\u202Egnp.exe\u0000\u0007");
    expect(res.status, res.text).toBe(201);
    expect(res.json["name"]).toBe("gnp.exe");
    const dots = await upload(id, "hello", "..");
    expect(dots.json["name"]).toBe("file");
  });

  it("[R263] a file over the cap is 413 and nothing is written; so is a message whose files together exceed theirs", async () => {
    const id = await newSession();
    const big = await upload(id, "x".repeat(FILE_CAP + 1), "big.txt");
    expect(big.status).toBe(413);
    expect(big.json).toMatchObject({ error: { code: "attachment_too_large" } });
    expect(await blobCount(id)).toBe(0);

    const ids: unknown[] = [];
    for (let i = 0; i < 2; i += 1) {
      const res = await upload(id, String(i).repeat(FILE_CAP - 10), `part${i}.txt`);
      expect(res.status).toBe(201);
      ids.push(res.json["id"]);
    }
    const before = await nodeCount(id);
    const turn = await call("POST", `/api/sessions/${id}/turns`, {
      content: "Both",
      attachments: ids,
      stream: false,
    });
    expect(turn.status).toBe(413);
    expect(turn.json).toMatchObject({ error: { code: "attachment_too_large" } });
    expect(await nodeCount(id)).toBe(before);
    expect(server.chatRequests).toHaveLength(0);
  });

  it("[R264] an unknown, foreign or already-sent attachment id is a 4xx and the turn writes nothing", async () => {
    const id = await newSession();
    const other = await newSession();
    const theirs = (await upload(other, "their file", "theirs.txt")).json["id"];
    const mine = (await upload(id, "my file", "mine.txt")).json["id"];
    const before = await nodeCount(id);
    for (const [ids, status, code] of [
      [["01ARZ3NDEKTSV4RRFFQ69G5FAV"], 404, "attachment_not_found"],
      [[theirs], 404, "attachment_not_found"],
      [[mine, theirs], 404, "attachment_not_found"],
      [["../etc"], 400, "invalid_request"],
    ] as const) {
      const res = await call("POST", `/api/sessions/${id}/turns`, {
        content: "Read this",
        attachments: ids,
        stream: false,
      });
      expect([ids, res.status, (res.json["error"] as { code: string }).code]).toEqual([
        ids,
        status,
        code,
      ]);
    }
    expect(await nodeCount(id)).toBe(before);
    // Another session's attachment is not served here either.
    expect((await call("GET", `/api/sessions/${id}/attachments/${theirs}`)).status).toBe(404);

    const sent = await call("POST", `/api/sessions/${id}/turns`, {
      content: "",
      attachments: [mine],
      stream: false,
    });
    expect(sent.status, sent.text).toBe(200);
    const again = await call("POST", `/api/sessions/${id}/turns`, {
      content: "Again",
      attachments: [mine],
      stream: false,
    });
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ error: { code: "attachment_in_use" } });
  });

  it("[R267] an image for a model without vision is a 400 before anything is sent or written", async () => {
    const id = await newSession();
    await call("PATCH", `/api/sessions/${id}`, { settings: { vision: false } });
    const img = (await upload(id, makePng(8, 8), "a.png")).json["id"];
    const before = await nodeCount(id);
    const res = await call("POST", `/api/sessions/${id}/turns`, {
      content: "Look",
      attachments: [img],
      stream: false,
    });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      error: { code: "vision_unsupported", message: expect.stringContaining("cannot read images") },
    });
    expect(await nodeCount(id)).toBe(before);
    expect(server.chatRequests).toHaveLength(0);
  });

  it("[R262] only this route takes multipart: JSON here is 415, multipart elsewhere is 415, a form without `file` is 400", async () => {
    const id = await newSession();
    const json = await call("POST", `/api/sessions/${id}/attachments`, { file: "x" });
    expect(json.status).toBe(415);
    const elsewhere = await call("POST", `/api/sessions/${id}/turns`, undefined, {
      form: fileForm("x", "x.txt"),
    });
    expect(elsewhere.status).toBe(415);
    const form = new FormData();
    form.append("other", "value");
    const noFile = await call("POST", `/api/sessions/${id}/attachments`, undefined, { form });
    expect(noFile.status).toBe(400);
    // Someone else's (or no) session answers 404 before the body is read.
    const missing = await upload("01ARZ3NDEKTSV4RRFFQ69G5FAV", "x", "x.txt");
    expect(missing.status).toBe(404);
  });

  it("[R269] a PNG is served inline with its stored type and nosniff", async () => {
    const id = await newSession();
    const png = makePng(4, 4);
    const up = await upload(id, png, 'shot "1".png');
    const res = await call("GET", `/api/sessions/${id}/attachments/${up.json["id"]}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-disposition")).toMatch(/^inline; filename="shot 1_?\.png"/);
  });

  const blobBytes = async (id: string, sha256: string) =>
    (await services()).store
      .blobs(id as Parameters<typeof services>[never], [sha256])
      .then((m) => m.get(sha256)?.data);

  it("[R271] export → import keeps attachments byte-identical, under new ids; a tampered hash or size is a 400 that creates nothing", async () => {
    const id = await newSession();
    const png = makePng(32, 16);
    const img = (await upload(id, png, "chart.png")).json;
    const src = (await upload(id, TS_SOURCE, "add.ts")).json;
    const sent = await call("POST", `/api/sessions/${id}/turns`, {
      content: "Keep these",
      attachments: [img["id"], src["id"]],
      stream: false,
    });
    expect(sent.status, sent.text).toBe(200);
    const exported = await call("GET", `/api/sessions/${id}/export?format=json`);
    const file = JSON.parse(exported.text) as {
      blobs: { sha256: string; size: number; base64: string }[];
    };
    expect(file.blobs.map((b) => b.sha256).sort()).toEqual(
      [img["sha256"] as string, src["sha256"] as string].sort(),
    );

    const imported = await call("POST", "/api/import", exported.text);
    expect(imported.status, imported.text).toBe(201);
    const copy = imported.json["id"] as string;
    const nodes = (await call("GET", `/api/sessions/${copy}/nodes`)).json["nodes"] as LedgerNode[];
    const user = nodes.find((n) => n.kind === "user");
    const refs = user?.metadata["attachments"] as AttachmentRef[];
    expect(refs.map((a) => [a.name, a.mime, a.size, a.sha256])).toEqual([
      ["chart.png", "image/png", png.byteLength, img["sha256"]],
      ["add.ts", "text/plain", Buffer.byteLength(TS_SOURCE), src["sha256"]],
    ]);
    expect(refs[0]?.id).not.toBe(img["id"]);
    expect(
      Buffer.from((await blobBytes(copy, img["sha256"] as string)) ?? []).equals(Buffer.from(png)),
    ).toBe(true);
    const served = await call("GET", `/api/sessions/${copy}/attachments/${refs[1]?.id}`);
    expect(served.status).toBe(200);
    expect(served.text).toBe(TS_SOURCE);
    // The copy's prompt carries the same image.
    server.reset();
    await call("POST", `/api/sessions/${copy}/turns`, { content: "Still there?", stream: false });
    const url = everything(server.chatRequests.at(-1)).images[0]?.image_url?.url ?? "";
    expect(Buffer.from(url.split(",")[1] ?? "", "base64").equals(Buffer.from(png))).toBe(true);

    const sessionsBefore = (
      (await call("GET", "/api/sessions?limit=100")).json["sessions"] as unknown[]
    ).length;
    const tampered = JSON.parse(exported.text) as typeof file;
    const png64 = tampered.blobs.find((b) => b.sha256 === img["sha256"]);
    if (!png64) throw new Error("no PNG blob");
    const bytes = Buffer.from(png64.base64, "base64");
    bytes.writeUInt8((bytes.at(-1) ?? 0) ^ 0xff, bytes.length - 1);
    png64.base64 = bytes.toString("base64");
    const bad = await call("POST", "/api/import", JSON.stringify(tampered));
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ error: { message: expect.stringContaining("SHA-256") } });
    png64.base64 = Buffer.concat([Buffer.from(png), Buffer.from([0])]).toString("base64");
    const longer = await call("POST", "/api/import", JSON.stringify(tampered));
    expect(longer.status).toBe(400);
    expect(longer.json).toMatchObject({ error: { message: expect.stringContaining("size") } });
    expect(
      ((await call("GET", "/api/sessions?limit=100")).json["sessions"] as unknown[]).length,
    ).toBe(sessionsBefore);
  });

  it("[R277] a ledger with a PDF imports: its text is read again from the bytes, which stay byte-identical", async () => {
    const id = await newSession();
    const pdf = makePdf(PDF_PAGE_TEXTS);
    const doc = (await upload(id, pdf, "report.pdf")).json;
    const sent = await call("POST", `/api/sessions/${id}/turns`, {
      content: "Keep this",
      attachments: [doc["id"]],
      stream: false,
    });
    expect(sent.status, sent.text).toBe(200);
    const exported = await call("GET", `/api/sessions/${id}/export?format=json`);
    const imported = await call("POST", "/api/import", exported.text);
    expect(imported.status, imported.text).toBe(201);
    const copy = imported.json["id"] as string;
    const nodes = (await call("GET", `/api/sessions/${copy}/nodes`)).json["nodes"] as LedgerNode[];
    const refs = nodes.find((n) => n.kind === "user")?.metadata["attachments"] as AttachmentRef[];
    expect(refs.map((a) => [a.name, a.mime, a.size, a.sha256, a.tokens])).toEqual([
      ["report.pdf", "application/pdf", pdf.byteLength, doc["sha256"], doc["tokens"]],
    ]);
    const bytes = await blobBytes(copy, doc["sha256"] as string);
    expect(Buffer.from(bytes ?? []).equals(Buffer.from(pdf))).toBe(true);
    server.reset();
    await call("POST", `/api/sessions/${copy}/turns`, { content: "Still there?", stream: false });
    expect(everything(server.chatRequests.at(-1)).text).toContain(
      "File: report.pdf\n```\n" + PDF_TEXT + "\n```",
    );
  });

  it("[R272] deleting the last branch that references a blob removes it; a blob another branch names stays", async () => {
    const id = await newSession();
    const session = (await call("GET", `/api/sessions/${id}`)).json;
    const png = makePng(10, 10);
    const a1 = (await upload(id, png, "shared.png")).json["id"];
    const a2 = (await upload(id, TS_SOURCE, "only-a.ts")).json["id"];
    const a = await call("POST", `/api/sessions/${id}/turns`, {
      content: "Branch A",
      attachments: [a1, a2],
      stream: false,
    });
    expect(a.status, a.text).toBe(200);
    const b1 = (await upload(id, png, "again.png")).json["id"];
    const b = await call("POST", `/api/sessions/${id}/turns`, {
      content: "Branch B",
      parentId: session["rootId"],
      attachments: [b1],
      stream: false,
    });
    expect(b.status, b.text).toBe(200);
    expect(await blobCount(id)).toBe(2);
    const tipA = (a.json["reply"] as LedgerNode).id;
    const deleted = await call("DELETE", `/api/sessions/${id}/branches/${tipA}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(await blobCount(id)).toBe(1);
    expect(await blobBytes(id, createHash("sha256").update(png).digest("hex"))).toBeDefined();
    expect((await call("GET", `/api/sessions/${id}/attachments/${a2}`)).status).toBe(404);
    expect((await call("GET", `/api/sessions/${id}/attachments/${b1}`)).status).toBe(200);
    const tipB = (b.json["reply"] as LedgerNode).id;
    await call("DELETE", `/api/sessions/${id}/branches/${tipB}`);
    expect(await blobCount(id)).toBe(0);
  });

  it("[R273] the Markdown export lists a message's attachments", async () => {
    const id = await newSession();
    const f = (await upload(id, TS_SOURCE, "add.ts")).json["id"];
    await call("POST", `/api/sessions/${id}/turns`, {
      content: "See file",
      attachments: [f],
      stream: false,
    });
    const md = await call("GET", `/api/sessions/${id}/export?format=markdown`);
    expect(md.text).toContain(
      `- Attachment: \`add.ts\` (text/plain, ${Buffer.byteLength(TS_SOURCE)} bytes)`,
    );
  });
});
