"use client";

import { useSession } from "@/components/session/session-context";
import p from "./panel.module.css";

/** The graph's overlay: relic toggle, fit, and a legend of what the marks mean. */
export function GraphToolbar({
  relics,
  onFit,
}: {
  readonly relics: number;
  readonly onFit: () => void;
}) {
  const showRelics = useSession((st) => st.showRelics);
  const toggleRelics = useSession((st) => st.toggleRelics);
  return (
    <div className={p.toolbar}>
      <button type="button" className={p.button} onClick={onFit} title="Fit the graph (F)">
        Fit
      </button>
      <button
        type="button"
        className={p.button}
        aria-pressed={showRelics}
        onClick={toggleRelics}
        disabled={relics === 0 && !showRelics}
        title="Superseded summaries, drawn faded beside their predecessor"
      >
        Show relics{relics > 0 ? ` (${relics})` : ""}
      </button>
      <div className={p.legend} aria-label="Legend">
        <span className={p.legendItem}>
          <span className={p.swatchHead}>HEAD</span>
        </span>
        <span className={p.legendItem}>
          <span className={p.swatchSpine} aria-hidden />
          HEAD branch
        </span>
        <span className={p.legendItem}>
          <span className={p.swatchCapsule} aria-hidden />
          summary
        </span>
        <span className={p.legendItem}>
          <span className={p.swatchRaw} aria-hidden />
          raw context
        </span>
      </div>
    </div>
  );
}
