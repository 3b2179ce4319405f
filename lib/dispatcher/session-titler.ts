import { isEngineError } from "../engine/errors";
import type { SessionId } from "../engine/ids";
import { cleanModelTitle, titleFromMessage, UNTITLED } from "../engine/session-title";
import type { LedgerNode, SessionRecord } from "../engine/types";
import { collectStream } from "../llm/collect-stream";
import type { Providers } from "../llm/provider-factory";
import { buildTitlePrompt, TITLE_MAX_OUTPUT_TOKENS } from "../llm/title-prompt";
import type { LedgerReads } from "../store/ledger-reads";
import type { SessionRows } from "../store/session-rows";

export interface SessionTitlerDeps {
  readonly store: Pick<SessionRows, "setAutoTitle"> & Pick<LedgerReads, "spine">;
  readonly providers: Pick<Providers, "chat" | "summaryModel">;
  /** Where failures go (they never reach the user: the session stays "New chat"). */
  readonly log?: (message: string, error: unknown) => void;
}

/**
 * Titles a session after its first complete reply ([R105]): the summary model's ≤ 6-word
 * title when a real model is configured, the first user message's first line with the
 * offline model (or when the model fails or answers nothing usable). It runs after the reply
 * is sealed and never delays it; the write is the store's compare-and-swap, so a title the
 * user chose — before or while this ran — is never replaced. Open pages learn of the new
 * title through the `session_changed` the store announces with it.
 */
export class SessionTitler {
  private readonly running = new Map<SessionId, Promise<void>>();

  constructor(private readonly deps: SessionTitlerDeps) {}

  /**
   * Called when a turn ends. `session` is as the turn loaded it: its `titleSource` only
   * spares sessions that already have a title the work; the write checks again.
   */
  afterReply(session: SessionRecord, reply: LedgerNode): void {
    const untitled = session.meta.titleSource === undefined && session.title === UNTITLED;
    if (!untitled || reply.status !== "complete") return;
    if (this.running.has(session.id)) return;
    const job = this.title(session.id, reply)
      .catch((e: unknown) => {
        // A session deleted meanwhile needs no title.
        if (isEngineError(e) && e.code === "session_not_found") return;
        this.log("[spindle] titling a session failed", e);
      })
      .finally(() => this.running.delete(session.id));
    this.running.set(session.id, job);
  }

  /** Resolves once no title is being written (shutdown, tests). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()]);
  }

  private async title(sessionId: SessionId, reply: LedgerNode): Promise<void> {
    const spine = await this.deps.store.spine(sessionId, reply.id);
    const first = spine.findIndex((n) => n.kind === "user");
    const user = spine[first];
    if (user === undefined) return;
    const answer = spine
      .slice(first + 1)
      .find((n) => n.kind === "assistant" && n.status === "complete" && n.content.trim() !== "");
    const title = await this.compose(user.content, answer?.content ?? "");
    await this.deps.store.setAutoTitle(sessionId, title);
  }

  private async compose(firstUser: string, firstReply: string): Promise<string> {
    const fallback = titleFromMessage(firstUser);
    const { chat, summaryModel } = this.deps.providers;
    if (chat.kind === "offline") return fallback;
    try {
      const result = await collectStream(
        chat.stream({
          messages: buildTitlePrompt(firstUser, firstReply),
          model: summaryModel,
          maxOutputTokens: TITLE_MAX_OUTPUT_TOKENS,
          temperature: 0,
        }),
      );
      return cleanModelTitle(result.text) || fallback;
    } catch (e) {
      this.log("[spindle] the title model failed; the first message names the session", e);
      return fallback;
    }
  }

  private log(message: string, error: unknown): void {
    (this.deps.log ?? ((m, e) => console.error(m, e)))(message, error);
  }
}
