import type { ShortcutSection } from "@/components/shortcuts/registry";

/** The graph's keys (use-graph-keys.ts), as the `?` dialog lists them. */
export const GRAPH_SHORTCUTS: ShortcutSection = {
  id: "graph",
  title: "Graph",
  where: "when the graph has focus (click it, or Tab to it)",
  shortcuts: [
    { keys: ["↑", "↓"], what: "Move to the message above or below (down follows HEAD's branch)" },
    { keys: ["←", "→"], what: "Move between versions of a message, then to notes beside it" },
    {
      keys: ["Enter"],
      what: "Continue from the selected message (check it out: HEAD moves there)",
    },
    { keys: ["Space"], what: "Open a summary to see its original turns, or fold them back" },
    { keys: ["H"], what: "Back to HEAD: show where you are at reading size" },
    { keys: ["F"], what: "Fit the whole graph" },
    { keys: ["M"], what: "Show or hide the overview map" },
    { keys: ["C"], what: "Compare the selected message's branch with another: pick it next" },
    { keys: ["Shift", "click"], what: "Compare the selected message with the one clicked" },
    { keys: ["Esc"], what: "Stop picking a message to compare with" },
    { keys: ["?"], what: "This list" },
  ],
};
