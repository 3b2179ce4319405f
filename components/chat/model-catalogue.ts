"use client";

import { useSyncExternalStore } from "react";
import { modelsAnswerSchema, type ModelEntry, type ModelsAnswer } from "@/lib/http/schemas";
import { readAnswer } from "@/components/ui/read-answer";

/**
 * `GET /api/models`, asked once per page and shared by the model picker and the replies'
 * cost line. A failed request is answered with its reason; the next `loadModels()` asks
 * again.
 */
type State =
  | { readonly status: "idle" | "loading" }
  | { readonly status: "ready"; readonly answer: ModelsAnswer }
  | { readonly status: "failed"; readonly error: string };

let state: State = { status: "idle" };
const listeners = new Set<() => void>();
const IDLE: State = { status: "idle" };

function set(next: State): void {
  state = next;
  for (const l of listeners) l();
}

/**
 * Asks for the catalogue unless it is on its way or held complete. A list the provider did
 * not give (the request failed, or the answer carries the provider's `error`) is asked for
 * again, so reopening the picker or the settings retries a provider that was down.
 */
export function loadModels(): void {
  if (state.status === "loading") return;
  if (state.status === "ready" && state.answer.error === null) return;
  set({ status: "loading" });
  fetch("/api/models")
    .then(async (r) => {
      if (!r.ok) throw new Error(`The models could not be listed (${r.status}).`);
      set({ status: "ready", answer: await readAnswer(r, modelsAnswerSchema) });
    })
    .catch((e: unknown) =>
      set({
        status: "failed",
        error: e instanceof Error ? e.message : "The models could not be listed.",
      }),
    );
}

/** The catalogue as it stands (idle until someone loads it). */
export function useModels(): State {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
    () => IDLE,
  );
}

/** The models the catalogue lists (none until it is loaded). */
export function modelsOf(s: State): readonly ModelEntry[] {
  return s.status === "ready" ? s.answer.models : [];
}

/** Why the list is missing or incomplete, in words for the page; null when it is whole. */
export function whyUnlisted(s: State): string | null {
  if (s.status === "failed") return s.error;
  if (s.status === "ready" && s.answer.error !== null) {
    return `The provider did not list its models: ${s.answer.error}`;
  }
  return null;
}

/** The entry of `model`, when the catalogue is loaded and lists it. */
export function entryOf(s: State, model: string | undefined): ModelEntry | undefined {
  return s.status === "ready" && model ? s.answer.models.find((m) => m.id === model) : undefined;
}

/** A reply's cost in US dollars from its tokens and the model's list price. */
export function costOf(
  price: { readonly input: number; readonly output: number },
  usage: { readonly promptTokens: number; readonly completionTokens: number },
): number {
  return (usage.promptTokens * price.input + usage.completionTokens * price.output) / 1_000_000;
}

/** "$0.0123": four decimals under a dollar, cents above. */
export function formatCost(usd: number): string {
  return usd >= 1 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}

/** "128k" style window sizes. */
export function formatWindow(tokens: number): string {
  return tokens >= 1000 ? `${Math.round(tokens / 1000).toLocaleString("en")}k` : String(tokens);
}
