import type { AttachmentRef } from "@/lib/engine/types";
import type { AttachmentCaps } from "@/lib/files/limits";
import { isImageType, refuseFile, type DraftFacts } from "./attachment-checks";
import type { Upload } from "./upload-attachment";

/**
 * The files of the message being written (issue 24): each uploaded as soon as it is added
 * and shown as a chip until the message is sent. A file the page can already tell the
 * server would refuse (too big, one too many) is never uploaded; it stays as a refused chip
 * with the reason until removed. On the new-chat page there is no session to upload to yet:
 * files are held and uploaded when the first message is sent (`uploadHeld`).
 */

export type DraftStatus =
  | { readonly kind: "held" }
  | { readonly kind: "uploading"; readonly loaded: number }
  | { readonly kind: "ready"; readonly ref: AttachmentRef }
  | { readonly kind: "refused"; readonly message: string };

export interface DraftAttachment extends DraftFacts {
  readonly key: string;
  /** The judged type once uploaded, the browser's guess before. */
  readonly type: string;
  /** The file itself while it may still have to be uploaded; null once it came as a ref. */
  readonly file: File | null;
  /** A URL showing the image on its chip, or null. */
  readonly preview: string | null;
  readonly state: DraftStatus;
}

/** The browser's side of the draft, passed in so the draft is testable without one. */
export interface DraftDeps {
  readonly caps: AttachmentCaps;
  /** Uploads a file at once; null where there is no session yet (the new chat). */
  readonly upload: Upload | null;
  /** A URL for an image file's preview (`URL.createObjectURL`), and its release. */
  readonly preview: (file: File) => string | null;
  readonly release: (url: string) => void;
  /** A URL for an image already uploaded (the served attachment). */
  readonly previewOf: (ref: AttachmentRef) => string | null;
}

export interface AttachmentDraft {
  /** The files in order; the same array until something changes. */
  list(): readonly DraftAttachment[];
  /** Adds files (button, drop or paste): each checked, then uploaded when it can be. */
  add(files: readonly File[]): void;
  /** Removes a file, cancelling its upload; what was uploaded waits unsent on the server. */
  remove(key: string): void;
  /** Empties the draft for sending; the files taken, for `putBack` or `sent`. */
  take(): readonly DraftAttachment[];
  /** A send that failed: its files come back in front of any added meanwhile. */
  putBack(files: readonly DraftAttachment[]): void;
  /** A send that succeeded: the taken files' previews are released. */
  sent(files: readonly DraftAttachment[]): void;
  /** Files uploaded elsewhere (the new chat's first message, refused) shown again. */
  restore(refs: readonly AttachmentRef[]): void;
  /**
   * Uploads every held file with `upload` (the new chat, once its session exists); the refs
   * in order, or null when any failed — then the failed ones show why and the others are held
   * again (their uploads went to a session that is not kept).
   */
  uploadHeld(upload: Upload): Promise<readonly AttachmentRef[] | null>;
  /** Releases every preview (the page goes). */
  dispose(): void;
  subscribe(listener: () => void): () => void;
}

const imageOf = (ref: AttachmentRef) => isImageType(ref.mime);

export function createAttachmentDraft(deps: DraftDeps): AttachmentDraft {
  let items: readonly DraftAttachment[] = [];
  const uploads = new Map<string, AbortController>();
  const listeners = new Set<() => void>();
  let next = 0;

  const changed = () => {
    for (const l of listeners) l();
  };
  const set = (list: readonly DraftAttachment[]) => {
    items = list;
    changed();
  };
  const update = (key: string, state: DraftStatus, ref?: AttachmentRef) =>
    set(
      items.map((item) =>
        item.key !== key
          ? item
          : ref
            ? {
                ...item,
                state,
                name: ref.name,
                type: ref.mime,
                image: imageOf(ref),
              }
            : { ...item, state },
      ),
    );
  const releaseAll = (list: readonly DraftAttachment[]) => {
    for (const item of list) {
      if (item.preview !== null && item.file !== null) deps.release(item.preview);
    }
  };

  /** Uploads one file; resolves with its ref, or null when it failed (the chip says why). */
  const start = async (key: string, file: File, upload: Upload): Promise<AttachmentRef | null> => {
    const controller = new AbortController();
    uploads.set(key, controller);
    update(key, { kind: "uploading", loaded: 0 });
    try {
      const ref = await upload(
        file,
        (loaded) => {
          if (items.some((i) => i.key === key)) update(key, { kind: "uploading", loaded });
        },
        controller.signal,
      );
      if (items.some((i) => i.key === key)) update(key, { kind: "ready", ref }, ref);
      return ref;
    } catch (e) {
      if ((e as Error).name !== "AbortError" && items.some((i) => i.key === key)) {
        update(key, { kind: "refused", message: (e as Error).message });
      }
      return null;
    } finally {
      uploads.delete(key);
    }
  };

  return {
    list: () => items,
    add(files) {
      let held = items.filter((i) => i.state.kind !== "refused").length;
      const added: DraftAttachment[] = [];
      for (const file of files) {
        const refusal = refuseFile(file, held, deps.caps);
        const image = isImageType(file.type);
        const state: DraftStatus = refusal
          ? { kind: "refused", message: refusal }
          : deps.upload
            ? { kind: "uploading", loaded: 0 }
            : { kind: "held" };
        if (!refusal) held += 1;
        added.push({
          key: `f${(next += 1)}`,
          name: file.name || "file",
          size: file.size,
          type: file.type,
          image,
          file,
          preview: image && !refusal ? deps.preview(file) : null,
          state,
        });
      }
      set([...items, ...added]);
      const upload = deps.upload;
      if (upload) {
        for (const item of added) {
          if (item.state.kind === "uploading" && item.file) void start(item.key, item.file, upload);
        }
      }
    },
    remove(key) {
      uploads.get(key)?.abort();
      const gone = items.filter((i) => i.key === key);
      releaseAll(gone);
      set(items.filter((i) => i.key !== key));
    },
    take() {
      const taken = items;
      set([]);
      return taken;
    },
    putBack(files) {
      set([...files, ...items]);
    },
    sent(files) {
      releaseAll(files);
    },
    restore(refs) {
      set([
        ...refs.map((ref): DraftAttachment => {
          const state: DraftStatus = { kind: "ready", ref };
          return {
            key: `f${(next += 1)}`,
            name: ref.name,
            size: ref.size,
            type: ref.mime,
            image: imageOf(ref),
            file: null,
            preview: imageOf(ref) ? deps.previewOf(ref) : null,
            state,
          };
        }),
        ...items,
      ]);
    },
    async uploadHeld(upload) {
      const held = items.filter((i) => i.state.kind === "held" && i.file !== null);
      const refs = await Promise.all(held.map((i) => start(i.key, i.file as File, upload)));
      if (refs.every((r) => r !== null)) return refs;
      for (const item of held) {
        if (items.find((i) => i.key === item.key)?.state.kind === "ready") {
          update(item.key, { kind: "held" });
        }
      }
      return null;
    },
    dispose() {
      for (const c of uploads.values()) c.abort();
      releaseAll(items);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
