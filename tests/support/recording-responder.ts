/**
 * Plays one `Behaviour` as the answer to one chat request, streaming (SSE) or not,
 * depending on what the request asked for.
 */
import type http from "node:http";
import type { Behaviour, WireUsage } from "./recording-behaviours";
import type { RecordedRequest } from "./recording-server";

/** A stream that stays open until `fail` is called (see RecordingServer.interrupt). */
export interface OpenStream {
  fail(mode: "destroy" | "error_event"): void;
}

const SSE_ERROR = {
  error: {
    message: "The server had an error while processing your request.",
    type: "server_error",
    code: 500,
  },
};

let sequence = 0;

function defaultChunks(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** The server's unit of prompt tokens: whitespace-separated words of the messages' text. */
export function messageWords(messages: readonly unknown[]): number {
  return messages
    .map((m: unknown) => (m as { content?: unknown } | null)?.content)
    .filter((c): c is string => typeof c === "string")
    .reduce((n, c) => n + (c.match(/\S+/g)?.length ?? 0), 0);
}

function promptWords(request: RecordedRequest): number {
  const messages = request.body?.["messages"];
  return Array.isArray(messages) ? messageWords(messages) : 0;
}

export interface ServeOptions {
  /**
   * Prompt tokens to report as served from a prompt cache
   * (`usage.prompt_tokens_details.cached_tokens`); none reported when undefined.
   */
  readonly cachedTokens?: number;
}

export async function serveChat(
  request: RecordedRequest,
  behaviour: Behaviour,
  res: http.ServerResponse,
  open: Set<OpenStream>,
  options: ServeOptions = {},
): Promise<void> {
  const body = request.body ?? {};
  const streaming = body["stream"] === true;
  const streamOptions = body["stream_options"] as { include_usage?: unknown } | undefined;
  const includeUsage = streamOptions?.include_usage === true;
  const model = typeof body["model"] === "string" ? body["model"] : "spindle-test-model";
  const id = `chatcmpl-rec${++sequence}`;
  const created = 1_700_000_000;
  const gone = () => res.destroyed || res.writableEnded;

  /** Resolves after `ms`, or as soon as the client goes away. */
  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      if (ms <= 0 || gone()) return resolve();
      const timer = setTimeout(done, ms);
      res.once("close", done);
      function done() {
        clearTimeout(timer);
        res.off("close", done);
        resolve();
      }
    });
  const write = (payload: unknown) =>
    new Promise<void>((resolve) => {
      if (gone()) return resolve();
      res.write(
        `data: ${typeof payload === "string" ? payload : JSON.stringify(payload)}\n\n`,
        () => resolve(),
      );
    });
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
    write({
      id,
      object: "chat.completion.chunk",
      created,
      model,
      choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
    });
  const usageFor = (given: WireUsage | null | undefined, completion: number): WireUsage | null => {
    if (given !== undefined) return given;
    const prompt = promptWords(request);
    return {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      ...(options.cachedTokens === undefined
        ? {}
        : { prompt_tokens_details: { cached_tokens: options.cachedTokens } }),
    };
  };
  const startSse = () => {
    res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    return chunk({ role: "assistant", content: "" });
  };
  const endSse = async (usage: WireUsage | null) => {
    if (includeUsage && usage !== null) {
      await write({ id, object: "chat.completion.chunk", created, model, choices: [], usage });
    }
    await write("[DONE]");
    res.end();
  };
  const fail = (mode: "destroy" | "error_event") => {
    if (mode === "destroy" || !res.headersSent) {
      res.destroy();
      return;
    }
    res.end(`data: ${JSON.stringify(SSE_ERROR)}\n\n`);
  };
  const holdOpen = () =>
    new Promise<void>((resolve) => {
      const stream: OpenStream = {
        fail(mode) {
          open.delete(stream);
          fail(mode);
          resolve();
        },
      };
      open.add(stream);
      res.once("close", () => {
        open.delete(stream);
        resolve();
      });
    });
  const completion = (
    message: Record<string, unknown>,
    finishReason: string,
    usage: WireUsage | null,
  ) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        id,
        object: "chat.completion",
        created,
        model,
        choices: [{ index: 0, message, finish_reason: finishReason, logprobs: null }],
        ...(usage === null ? {} : { usage }),
      }),
    );
  };

  switch (behaviour.kind) {
    case "error": {
      const text =
        typeof behaviour.body === "string" ? behaviour.body : JSON.stringify(behaviour.body);
      const type = typeof behaviour.body === "string" ? "text/plain" : "application/json";
      res.writeHead(behaviour.status, { "content-type": type, ...behaviour.headers });
      res.end(text);
      return;
    }
    case "drop":
      res.destroy();
      return;
    case "reply": {
      const chunks = behaviour.chunks ?? defaultChunks(behaviour.text);
      const finish = behaviour.finishReason ?? "stop";
      const usage = usageFor(behaviour.usage, chunks.length);
      if (!streaming) {
        await wait(behaviour.firstTokenDelayMs ?? 0);
        return completion({ role: "assistant", content: chunks.join("") }, finish, usage);
      }
      await startSse();
      await wait(behaviour.firstTokenDelayMs ?? 0);
      for (const [i, piece] of chunks.entries()) {
        if (i > 0) await wait(behaviour.chunkDelayMs ?? 0);
        await chunk({ content: piece });
      }
      await chunk({}, finish);
      return endSse(usage);
    }
    case "tool_calls": {
      const size = behaviour.argumentChunkSize ?? 7;
      const usage = usageFor(behaviour.usage, behaviour.calls.length);
      if (!streaming) {
        const tool_calls = behaviour.calls.map((c) => ({
          id: c.id,
          type: "function",
          function: { name: c.name, arguments: c.arguments },
        }));
        return completion(
          { role: "assistant", content: behaviour.text ?? null, tool_calls },
          "tool_calls",
          usage,
        );
      }
      await startSse();
      for (const piece of defaultChunks(behaviour.text ?? "")) await chunk({ content: piece });
      for (const [index, call] of behaviour.calls.entries()) {
        const head = {
          index,
          id: call.id,
          type: "function",
          function: { name: call.name, arguments: "" },
        };
        await chunk({ tool_calls: [head] });
        for (let at = 0; at < call.arguments.length; at += size) {
          await chunk({
            tool_calls: [{ index, function: { arguments: call.arguments.slice(at, at + size) } }],
          });
        }
      }
      await chunk({}, "tool_calls");
      return endSse(usage);
    }
    case "fail_mid_stream": {
      if (!streaming) {
        res.destroy();
        return;
      }
      await startSse();
      for (const piece of defaultChunks(behaviour.text)) await chunk({ content: piece });
      await wait(behaviour.afterMs ?? 20);
      fail(behaviour.mode);
      return;
    }
    case "hang": {
      if (streaming) {
        await startSse();
        for (const piece of defaultChunks(behaviour.text ?? "")) await chunk({ content: piece });
      }
      return holdOpen();
    }
    case "truncate": {
      if (!streaming) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(`{"id":"${id}","choices":[`);
        return;
      }
      await startSse();
      for (const piece of defaultChunks(behaviour.text)) await chunk({ content: piece });
      res.end();
      return;
    }
  }
}
