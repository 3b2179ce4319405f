import { resolveBudget } from "../engine/resolve-budget";
import type { SessionSettings } from "../engine/types";
import { lookupModel } from "../llm/model-registry";

/**
 * The context window a call to `model` runs under in a session: the session's own window
 * when it is the session's model, else that model's (from the registry) — the server's
 * `SPINDLE_CONTEXT_WINDOW` above both, as for every budget ([R54]). A replay or an audit on
 * another model is priced against that model's window, not the session's.
 */
export function windowFor(input: {
  readonly settings: SessionSettings | undefined;
  /** The model the session's turns use. */
  readonly sessionModel: string;
  readonly model: string;
  readonly serverWindow: number | undefined;
}): number {
  let settings = input.settings;
  if (input.model !== input.sessionModel && settings !== undefined) {
    const { contextWindow: _own, keepRecentTokens: _keep, ...rest } = settings;
    settings = rest;
  }
  return resolveBudget({
    settings,
    modelWindow: lookupModel(input.model).contextWindow,
    serverWindow: input.serverWindow,
    serverKeepRecentTokens: undefined,
  }).window;
}
