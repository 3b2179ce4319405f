/**
 * What a domain of the synthetic corpus is made of: the talk that fills a long conversation
 * and the facts, artifacts, decisions and pending asks planted in it (each with the probe
 * that asks for it). Templates name slots in braces (`{name}`, `{value}`) and inline
 * alternatives as `{{a|b|c}}`.
 */
import type { Rng } from "./rng";

/** The four probe kinds of Factory's evaluation, as the audit uses them (docs/decisions.md). */
export type PlantKind = "fact" | "artifact" | "decision" | "pending";

export type SlotFn = (rng: Rng) => string;

export interface Plant {
  readonly kind: PlantKind;
  /** Who states it. An assistant buries it after its first sentence most of the time. */
  readonly by: "user" | "assistant";
  /** A user message that leads to an assistant's plant (otherwise any ask). */
  readonly lead?: string;
  /** The sentence that plants the value: `{value}` and any slots. */
  readonly say: string;
  /** Draws the planted value. */
  readonly value: SlotFn;
  /** The probe question; it never contains the value. */
  readonly question: string;
  /**
   * The strings an answer (or a context) must all contain to count as retaining it; by
   * default the value itself.
   */
  readonly keys?: (value: string) => readonly string[];
  /** Decisions only: a later change of plan, which the probe then asks for. */
  readonly revise?: {
    readonly say: string;
    readonly value: SlotFn;
    readonly keys?: (value: string) => readonly string[];
  };
}

export interface Domain {
  readonly key: string;
  readonly title: string;
  readonly system: string;
  /** The conversation's first user message. */
  readonly opener: string;
  readonly asks: readonly string[];
  readonly lines: readonly string[];
  readonly slots: Readonly<Record<string, SlotFn>>;
  readonly plants: readonly Plant[];
}
