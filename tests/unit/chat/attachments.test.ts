import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import {
  overTotal,
  refuseFile,
  sendBlocker,
  visionWarning,
  type DraftFacts,
} from "@/components/chat/attachment-checks";
import { createAttachmentDraft, type DraftDeps } from "@/components/chat/attachment-draft";
import { formatBytes } from "@/components/chat/file-size";
import { MessageFiles, thumbSize, typeLabel } from "@/components/chat/message-files";
import { readsImages } from "@/components/chat/reads-images";
import type { Upload } from "@/components/chat/upload-attachment";
import { cardText } from "@/components/graph/card-text";
import type { DrawNode } from "@/components/graph/draw-tree";
import { turnNode } from "@/components/graph/flow-elements";
import { attachmentsLabel } from "@/components/graph/turn-card";
import type { GraphRow, GraphView } from "@/lib/engine/build-graph";
import { asNodeId, asSessionId, tokens } from "@/lib/engine/ids";
import type { AttachmentRef } from "@/lib/engine/types";
import type { AttachmentCaps } from "@/lib/files/limits";

// The browser side of attachments (docs/spec.md "Attachments", R280–R286).

const CAPS: AttachmentCaps = { maxAttachmentBytes: 1000, maxMessageAttachmentBytes: 1500 };

const facts = (name: string, size: number, extra: Partial<DraftFacts> = {}): DraftFacts => ({
  name,
  size,
  image: false,
  state: { kind: "ready" },
  ...extra,
});

const ref = (id: string, name: string, mime = "text/plain", size = 10): AttachmentRef => ({
  id,
  name,
  mime,
  size,
  sha256: "0".repeat(64),
  tokens: 12,
  ...(mime.startsWith("image/") ? { width: 800, height: 600 } : {}),
});

const file = (name: string, size: number, type = "text/plain") =>
  new File([new Uint8Array(size)], name, { type });

/** An upload the test answers by hand: each call waits until resolved or failed. */
function manualUpload() {
  const calls: {
    file: File;
    progress: (n: number) => void;
    signal: AbortSignal;
    resolve: (r: AttachmentRef) => void;
    reject: (e: Error) => void;
  }[] = [];
  const upload: Upload = (f, progress, signal) =>
    new Promise((resolve, reject) => {
      calls.push({ file: f, progress, signal, resolve, reject });
      signal.addEventListener("abort", () => reject(new DOMException("cancelled", "AbortError")));
    });
  return { upload, calls };
}

function deps(upload: Upload | null): DraftDeps & { released: string[] } {
  const released: string[] = [];
  return {
    caps: CAPS,
    upload,
    preview: (f) => `blob:${f.name}`,
    release: (url) => released.push(url),
    previewOf: (r) => `/served/${r.id}`,
    released,
  };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe("file sizes", () => {
  it("reads in 1,024s, one decimal under ten", () => {
    expect(formatBytes(31)).toBe("31 B");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(1_000_000)).toBe("977 KB");
    expect(formatBytes(10 * 1024 * 1024)).toBe("10 MB");
  });
});

describe("[R281] the page's checks before an upload and before a send", () => {
  it("[R281] refuses a file over the server's per-file cap, and the eleventh file, before any upload", () => {
    expect(refuseFile({ name: "a", size: 1000 }, 0, CAPS)).toBeNull();
    expect(refuseFile({ name: "a", size: 1001 }, 0, CAPS)).toBe(
      "It is 1001 B; one file may be at most 1000 B.",
    );
    expect(refuseFile({ name: "a", size: 1 }, 9, CAPS)).toBeNull();
    expect(refuseFile({ name: "a", size: 1 }, 10, CAPS)).toMatch(/at most 10 attachments/);
  });

  it("[R281] holds the send while a file uploads, a refused file remains, or the files together pass the message cap", () => {
    expect(sendBlocker([facts("a", 10)], CAPS)).toBeNull();
    expect(sendBlocker([facts("a", 10, { state: { kind: "uploading" } })], CAPS)).toBe(
      "Wait until the files are uploaded.",
    );
    expect(
      sendBlocker(
        [
          facts("a", 10, { state: { kind: "refused" } }),
          facts("b", 1, { state: { kind: "refused" } }),
        ],
        CAPS,
      ),
    ).toBe("Remove a, b first: they cannot be sent.");
    const heavy = [facts("a", 800), facts("b", 800)];
    expect(overTotal(heavy, CAPS)).toBe(
      "Together these files are 1.6 KB; one message may carry at most 1.5 KB.",
    );
    expect(sendBlocker(heavy, CAPS)).toBe(overTotal(heavy, CAPS));
    // A refused file is not sent, so it does not count towards the message's total.
    expect(
      overTotal([facts("a", 800), facts("b", 800, { state: { kind: "refused" } })], CAPS),
    ).toBeNull();
  });
});

describe("[R282] images and a model without vision", () => {
  const model = { offline: false, name: "gpt-4o", vision: true };
  const catalogue = {
    status: "ready" as const,
    answer: {
      provider: {
        kind: "openai-compatible" as const,
        label: "x",
        model: "gpt-4o",
        summaryModel: "gpt-4o",
      },
      models: [
        {
          id: "text-only",
          contextWindow: 1,
          tools: false,
          vision: false,
          known: true,
          price: null,
        },
      ],
      error: null,
      contextWindow: 1,
      notice: null,
    },
  };

  it("[R282] follows the server's rule: never offline, else the session's setting, else the registry", () => {
    expect(readsImages({ ...model, offline: true }, { vision: true }, catalogue)).toBe(false);
    expect(readsImages(model, undefined, catalogue)).toBe(true);
    expect(readsImages(model, { vision: false }, catalogue)).toBe(false);
    expect(readsImages({ ...model, vision: false }, { vision: true }, catalogue)).toBe(true);
    expect(readsImages(model, { model: "text-only" }, catalogue)).toBe(false);
    // A model the catalogue does not list: the page cannot tell; the server will say.
    expect(readsImages(model, { model: "mystery" }, catalogue)).toBeNull();
    expect(readsImages(model, { model: "mystery" }, { status: "idle" })).toBeNull();
  });

  it("[R282] warns about images only when the model is known not to read them", () => {
    const files = [facts("shot.png", 5, { image: true }), facts("notes.txt", 5)];
    const vision = { model: "m", offline: false };
    expect(visionWarning(files, { ...vision, reads: true })).toBeNull();
    expect(visionWarning(files, { ...vision, reads: null })).toBeNull();
    expect(visionWarning([facts("notes.txt", 5)], { ...vision, reads: false })).toBeNull();
    expect(visionWarning(files, { ...vision, reads: false })).toMatch(
      /^m cannot read images \(shot\.png\)\. .*“Images” in Settings/,
    );
    expect(visionWarning(files, { ...vision, offline: true, reads: false })).toMatch(
      /configure a model that reads images\.$/,
    );
  });
});

describe("[R280] [R283] the draft of a message's files", () => {
  it("[R280] uploads each file at once with its progress; a file too big is refused and never uploaded", async () => {
    const { upload, calls } = manualUpload();
    const d = deps(upload);
    const draft = createAttachmentDraft(d);
    let changes = 0;
    draft.subscribe(() => (changes += 1));
    draft.add([file("a.txt", 100), file("big.txt", 1001), file("p.png", 50, "image/png")]);
    expect(draft.list().map((f) => [f.name, f.state.kind])).toEqual([
      ["a.txt", "uploading"],
      ["big.txt", "refused"],
      ["p.png", "uploading"],
    ]);
    expect(calls.map((c) => c.file.name)).toEqual(["a.txt", "p.png"]);
    expect(draft.list()[2]?.preview).toBe("blob:p.png");
    calls[0]?.progress(40);
    expect(draft.list()[0]?.state).toEqual({ kind: "uploading", loaded: 40 });
    calls[0]?.resolve(ref("A1", "a.txt"));
    calls[1]?.reject(new Error("Not an accepted kind. Accepted: …"));
    await settle();
    expect(draft.list().map((f) => f.state.kind)).toEqual(["ready", "refused", "refused"]);
    expect(draft.list()[2]?.state).toEqual({
      kind: "refused",
      message: "Not an accepted kind. Accepted: …",
    });
    expect(changes).toBeGreaterThan(3);
  });

  it("[R280] removing a file cancels its upload and releases its preview", async () => {
    const { upload, calls } = manualUpload();
    const d = deps(upload);
    const draft = createAttachmentDraft(d);
    draft.add([file("p.png", 50, "image/png")]);
    const key = draft.list()[0]?.key ?? "";
    draft.remove(key);
    expect(calls[0]?.signal.aborted).toBe(true);
    expect(draft.list()).toEqual([]);
    expect(d.released).toEqual(["blob:p.png"]);
    await settle();
    expect(draft.list()).toEqual([]);
  });

  it("[R283] sending takes the files; a failed send puts them back in front, a good one releases them", async () => {
    const { upload, calls } = manualUpload();
    const d = deps(upload);
    const draft = createAttachmentDraft(d);
    draft.add([file("p.png", 50, "image/png")]);
    calls[0]?.resolve(ref("P1", "p.png", "image/png", 50));
    await settle();
    const taken = draft.take();
    expect(draft.list()).toEqual([]);
    draft.add([file("later.txt", 5)]);
    draft.putBack(taken);
    expect(draft.list().map((f) => f.name)).toEqual(["p.png", "later.txt"]);
    draft.sent(draft.take());
    expect(d.released).toEqual(["blob:p.png"]);
  });

  it("[R283] shows again files uploaded elsewhere (a new chat's refused first message)", () => {
    const draft = createAttachmentDraft(deps(null));
    draft.restore([ref("I1", "shot.png", "image/png"), ref("T1", "a.txt")]);
    expect(draft.list().map((f) => [f.name, f.state.kind, f.image, f.preview])).toEqual([
      ["shot.png", "ready", true, "/served/I1"],
      ["a.txt", "ready", false, null],
    ]);
  });

  it("[R284] a new chat holds its files, uploads them when it has a session, and holds them again when one is refused", async () => {
    const draft = createAttachmentDraft(deps(null));
    draft.add([file("a.txt", 10), file("b.bin", 10)]);
    expect(draft.list().map((f) => f.state.kind)).toEqual(["held", "held"]);

    const first = manualUpload();
    const refused = draft.uploadHeld(first.upload);
    first.calls[0]?.resolve(ref("A1", "a.txt"));
    first.calls[1]?.reject(new Error("Refused."));
    expect(await refused).toBeNull();
    expect(draft.list().map((f) => f.state.kind)).toEqual(["held", "refused"]);

    draft.remove(draft.list()[1]?.key ?? "");
    const second = manualUpload();
    const sent = draft.uploadHeld(second.upload);
    second.calls[0]?.resolve(ref("A2", "a.txt"));
    expect((await sent)?.map((r) => r.id)).toEqual(["A2"]);
  });
});

describe("[R285] a message's files in the transcript", () => {
  it("[R285] scales a thumbnail into 240×180, never up", () => {
    expect(thumbSize(800, 600)).toEqual({ width: 240, height: 180 });
    expect(thumbSize(1000, 200)).toEqual({ width: 240, height: 48 });
    expect(thumbSize(96, 64)).toEqual({ width: 96, height: 64 });
    expect(typeLabel("image/png")).toBe("PNG image");
    expect(typeLabel("text/plain")).toBe("Text file");
    expect(typeLabel("application/pdf")).toBe("PDF");
  });

  it("[R285] renders images as lazy thumbnails of known size and other files as download cards", () => {
    const html = renderToString(
      createElement(MessageFiles, {
        sessionId: "S1",
        files: [ref("I1", "shot.png", "image/png", 2048), ref("T1", "notes.txt", "text/plain", 31)],
      }),
    );
    expect(html).toContain('aria-label="Open image shot.png"');
    expect(html).toMatch(
      /<img src="\/api\/sessions\/S1\/attachments\/I1" alt="shot.png" width="240" height="180" loading="lazy"/,
    );
    expect(html).toMatch(/<a[^>]*href="\/api\/sessions\/S1\/attachments\/T1" download="notes.txt"/);
    expect(html).toContain("Text file · 31 B");
    // No file, no list.
    expect(renderToString(createElement(MessageFiles, { sessionId: "S1", files: [] }))).toBe("");
  });
});

describe("[R286] the graph's paperclip mark", () => {
  const row = (content: string, attachments: readonly AttachmentRef[]): GraphRow => ({
    id: asNodeId("U1"),
    sessionId: asSessionId("S1"),
    predecessorId: asNodeId("R"),
    seq: 1,
    kind: "user",
    content,
    status: "complete",
    callerId: null,
    metadata: attachments.length > 0 ? { attachments } : {},
    reads: [],
    tokenCount: tokens(5),
    createdAt: "2026-12-01T00:00:00.000Z",
    onHeadSpine: true,
    foldedIn: false,
    rawFork: false,
    childCount: 1,
    siblingIndex: 0,
    siblingCount: 1,
  });
  const two = [ref("I1", "shot.png", "image/png"), ref("T1", "notes.txt")];

  it("[R286] counts a node's files on its card", () => {
    // turnNode reads only HEAD of the view.
    const view = { headId: null } as unknown as GraphView;
    const card = (r: GraphRow) => {
      const draw: DrawNode = {
        id: r.id,
        row: r,
        shape: "turn",
        covered: false,
        children: [],
        sides: [],
        inner: [],
        capsule: null,
        port: null,
        edgeFrom: null,
      };
      return turnNode(draw, { x: 0, y: 0 }, { view, marks: null }).data.attachments;
    };
    expect(card(row("look", two))).toBe(2);
    expect(card(row("look", []))).toBe(0);
    expect(attachmentsLabel(2)).toBe("2 attachments");
    expect(attachmentsLabel(1)).toBe("1 attachment");
  });

  it("[R286] a message of only files is named by its files on its card", () => {
    expect(cardText(row("", two))).toBe("shot.png, notes.txt");
    expect(cardText(row("", []))).toBe("(empty)");
  });
});
