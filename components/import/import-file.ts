/**
 * What a chosen file is, decided by its shape: a Spindle ledger (`GET …/export?format=json`),
 * a ChatGPT `conversations.json` (an array of conversations), or one ChatGPT conversation
 * (an object with a `mapping`, as some tools save them one per file).
 */
export type ImportFile =
  | { readonly kind: "ledger"; readonly text: string; readonly nodes: number }
  | { readonly kind: "chatgpt"; readonly conversations: readonly unknown[] }
  | { readonly kind: "unknown"; readonly reason: string };

export function detectImportFile(text: string): ImportFile {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { kind: "unknown", reason: "The file is not JSON." };
  }
  if (Array.isArray(data)) {
    if (data.length === 0) return { kind: "unknown", reason: "The file holds no conversations." };
    return { kind: "chatgpt", conversations: data };
  }
  if (typeof data === "object" && data !== null) {
    const o = data as Record<string, unknown>;
    if (o["format"] === "spindle.ledger") {
      const nodes = Array.isArray(o["nodes"]) ? o["nodes"].length : 0;
      return { kind: "ledger", text, nodes };
    }
    if (typeof o["mapping"] === "object" && o["mapping"] !== null) {
      return { kind: "chatgpt", conversations: [data] };
    }
  }
  return {
    kind: "unknown",
    reason: "This is neither a Spindle ledger nor a ChatGPT conversations.json.",
  };
}

/** A request's worth of conversations: their JSON and their indices in the file. */
export interface Batch {
  readonly indices: readonly number[];
  readonly parts: readonly string[];
}

/** The JSON body of a batch (the parts are already serialised). */
export const batchBody = (batch: Batch) => `[${batch.parts.join(",")}]`;

/**
 * Splits conversations into batches of at most `maxBytes` of JSON each, in order: a big
 * export never meets the server's body cap whole, and each request stays short. A
 * conversation bigger than `maxBytes` travels alone (the server then judges it).
 */
export function batches(conversations: readonly unknown[], maxBytes: number): Batch[] {
  const encoder = new TextEncoder();
  const out: { indices: number[]; parts: string[] }[] = [];
  let size = Infinity;
  conversations.forEach((c, index) => {
    const part = JSON.stringify(c) ?? "null";
    const bytes = encoder.encode(part).byteLength + 1;
    const last = out.at(-1);
    if (!last || size + bytes > maxBytes) {
      out.push({ indices: [index], parts: [part] });
      size = bytes + 1;
    } else {
      last.indices.push(index);
      last.parts.push(part);
      size += bytes;
    }
  });
  return out;
}

/** A conversation's title for a result line, when it has one. */
export function titleOf(conversation: unknown): string | null {
  if (typeof conversation !== "object" || conversation === null) return null;
  const title = (conversation as Record<string, unknown>)["title"];
  return typeof title === "string" && title.trim() !== "" ? title.trim() : null;
}
