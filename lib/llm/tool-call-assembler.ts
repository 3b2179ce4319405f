/**
 * Joins streamed tool-call fragments into whole calls. The protocol sends the id and name
 * once, then the argument string in pieces, keyed by `index`; servers differ in the details
 * (Ollama sends a whole call in one chunk, some omit `index` or repeat the id), so the
 * assembler accepts all of them.
 */
import type { ToolCall } from "./types";

export interface ToolCallFragment {
  readonly index?: number | undefined;
  readonly id?: string | undefined;
  readonly function?: {
    readonly name?: string | undefined;
    readonly arguments?: string | undefined;
  };
}

interface PendingCall {
  id: string | undefined;
  name: string;
  arguments: string;
}

export interface ToolCallAssembler {
  /** Records one fragment; returns the index it was filed under. */
  add(fragment: ToolCallFragment, position: number): number;
  /** The calls so far, in index order; missing ids are synthesised as `call_<index>`. */
  calls(): readonly ToolCall[];
}

export function createToolCallAssembler(): ToolCallAssembler {
  const byIndex = new Map<number, PendingCall>();
  return {
    add(fragment, position) {
      const index = fragment.index ?? position;
      const entry = byIndex.get(index) ?? { id: undefined, name: "", arguments: "" };
      entry.id ??= fragment.id;
      // Names arrive whole on the first fragment; a repeat would double it, so keep the first.
      if (entry.name === "" && fragment.function?.name) entry.name = fragment.function.name;
      entry.arguments += fragment.function?.arguments ?? "";
      byIndex.set(index, entry);
      return index;
    },
    calls() {
      return [...byIndex.entries()]
        .sort(([a], [b]) => a - b)
        .map(([index, c]) => ({
          id: c.id ?? `call_${index}`,
          name: c.name,
          arguments: c.arguments,
        }));
    },
  };
}
