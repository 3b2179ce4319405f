import { CHAT_SHORTCUTS } from "@/components/chat/chat-shortcuts";
import { GRAPH_SHORTCUTS } from "@/components/graph/graph-shortcuts";

/** One key (or chord) and what it does. `keys` are shown as written: "Shift", "↑", "?". */
export interface Shortcut {
  readonly keys: readonly string[];
  readonly what: string;
}

/** A group of shortcuts that work in one part of the page. */
export interface ShortcutSection {
  readonly id: string;
  readonly title: string;
  /** Where the keys work, in a few words ("when the graph has focus"). */
  readonly where: string;
  readonly shortcuts: readonly Shortcut[];
}

/**
 * Every section the `?` dialog lists, in order. A part of the page with keys of its own
 * declares its section beside its key handler and adds it here: the list is written once,
 * next to the code it describes.
 */
export const SHORTCUT_SECTIONS: readonly ShortcutSection[] = [CHAT_SHORTCUTS, GRAPH_SHORTCUTS];
