import { decodeTurnStreamEvent, type TurnStreamEvent } from "@/lib/engine/turn-stream";

/** One Server-Sent Event read from a fetch response. */
export interface SseMessage {
  readonly event: string;
  readonly data: string;
}

/**
 * Reads an SSE body (the POST .../turns stream). EventSource cannot POST, so the stream is
 * parsed here; the format is the spec's: `event:` and `data:` lines, a blank line per event.
 */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let event = "message";
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) continue;
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (data.length > 0) yield { event, data: data.join("\n") };
    }
  }
}

/** A turn's or a replay's stream, each event decoded by the definitions the server encodes with. */
export async function* readTurnStream(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<TurnStreamEvent> {
  for await (const msg of readSse(body)) yield decodeTurnStreamEvent(msg.event, msg.data);
}
