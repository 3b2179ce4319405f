import type { NodeId } from "./ids";
import type { RenderedContext } from "./render-context";

/**
 * The provenance a model call stamps on the node it produces (compaction.md §7.2): the ids
 * whose content entered the prompt, in prompt order, ROOT included. Taken after
 * substitution, so a summary contributes its own id, never the ids it stands in for.
 */
export function readsOf(rendering: RenderedContext): readonly NodeId[] {
  return [...rendering.ids];
}
