import { chatGptImportResultSchema, type ChatGptImportResult } from "@/lib/http/schemas";
import { errorBodyOf } from "@/components/ui/api-error";
import { readAnswer } from "@/components/ui/read-answer";
import { batchBody, batches, titleOf, type Batch } from "./import-file";

/** The network and the clock, passed in (tests give fakes). */
export interface UploadDeps {
  /** POSTs a JSON body; resolves with the response, whatever its status. */
  readonly post: (url: string, body: string) => Promise<Response>;
  /** Waits before a retry of a busy server. */
  readonly wait: (ms: number) => Promise<void>;
  readonly onProgress?: (done: number, total: number) => void;
}

/** Well under the server's import cap (64 MiB by default), and quick to send. */
export const BATCH_BYTES = 8 * 1024 * 1024;
/** `import_busy` (another import is being written): tries before giving up. */
const BUSY_TRIES = 5;

/** A refusal's `{code, message}` as the import reports it. */
const refusalOf = (res: Response) => errorBodyOf(res, `The server answered ${res.status}.`);

/** Thrown when the import cannot go on at all (signed out, server down). */
export class UploadStopped extends Error {
  constructor(
    message: string,
    readonly partial: ChatGptImportResult,
  ) {
    super(message);
  }
}

/**
 * Imports a ChatGPT export batch by batch through `POST /api/import/chatgpt`, with indices
 * of the whole file in the result. A batch the server refuses as a whole (400, 413: a NUL
 * character or one oversized conversation inside it) is sent again one conversation at a
 * time, so only the bad one fails; a busy server is waited out a few times.
 */
export async function uploadChatGpt(
  conversations: readonly unknown[],
  deps: UploadDeps,
  maxBytes = BATCH_BYTES,
): Promise<ChatGptImportResult> {
  const result: ChatGptImportResult = { imported: [], failed: [] };
  const queue = batches(conversations, maxBytes);
  const total = conversations.length;
  let done = 0;
  deps.onProgress?.(0, total);
  while (queue.length > 0) {
    const batch = queue.shift() as Batch;
    let res: Response;
    try {
      res = await send(batchBody(batch), deps);
    } catch (e) {
      throw new UploadStopped(`The server could not be reached (${String(e)}).`, result);
    }
    if (res.ok) {
      let part: ChatGptImportResult;
      try {
        part = await readAnswer(res, chatGptImportResultSchema);
      } catch (e) {
        throw new UploadStopped((e as Error).message, result);
      }
      const at = (i: number) => batch.indices[i] ?? i;
      for (const x of part.imported) result.imported.push({ ...x, index: at(x.index) });
      for (const x of part.failed) result.failed.push({ ...x, index: at(x.index) });
    } else if ((res.status === 400 || res.status === 413) && batch.parts.length > 1) {
      queue.unshift(
        ...batch.parts.map((p, i) => ({ indices: [batch.indices[i] ?? 0], parts: [p] })),
      );
      continue;
    } else if (res.status === 400 || res.status === 413) {
      const index = batch.indices[0] ?? 0;
      const title = titleOf(conversations[index]);
      result.failed.push({ index, title, error: await refusalOf(res) });
    } else {
      throw new UploadStopped((await refusalOf(res)).message, result);
    }
    done += batch.parts.length;
    deps.onProgress?.(done, total);
  }
  result.imported.sort((a, b) => a.index - b.index);
  result.failed.sort((a, b) => a.index - b.index);
  return result;
}

async function send(body: string, deps: UploadDeps): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const res = await deps.post("/api/import/chatgpt", body);
    if (res.status !== 429 || attempt >= BUSY_TRIES) return res;
    await deps.wait(1_000 * attempt);
  }
}
