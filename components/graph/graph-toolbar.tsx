"use client";

import { useSession } from "@/components/session/session-context";
import p from "./panel.module.css";
import { HEAD_TITLE } from "./turn-card";

/** The graph's overlay: fit, the map, replaced summaries, the keys, and a legend. */
export function GraphToolbar({
  relics,
  onFit,
  minimap,
  onToggleMinimap,
  onShowKeys,
}: {
  readonly relics: number;
  readonly onFit: () => void;
  readonly minimap: boolean;
  readonly onToggleMinimap: () => void;
  readonly onShowKeys: () => void;
}) {
  const showRelics = useSession((st) => st.showRelics);
  const toggleRelics = useSession((st) => st.toggleRelics);
  return (
    <div className={p.toolbar}>
      <button type="button" className={p.button} onClick={onFit} title="Fit the whole graph (F)">
        Fit all
      </button>
      <button
        type="button"
        className={p.button}
        aria-pressed={minimap}
        onClick={onToggleMinimap}
        title="The overview map (M)"
      >
        Map
      </button>
      {(relics > 0 || showRelics) && (
        <button
          type="button"
          className={p.button}
          aria-pressed={showRelics}
          onClick={toggleRelics}
          title="Earlier summaries that a newer one replaced (superseded), drawn faded beside the turn they followed"
        >
          Show replaced summaries{relics > 0 ? ` (${relics})` : ""}
        </button>
      )}
      <button
        type="button"
        className={p.button}
        onClick={onShowKeys}
        title="Keyboard shortcuts (?)"
        aria-label="Keyboard shortcuts"
      >
        ?
      </button>
      <div className={p.legend} aria-label="Legend">
        <span className={p.legendItem} title={HEAD_TITLE}>
          <span className={p.swatchHead}>HEAD</span>
          you are here
        </span>
        <span className={p.legendItem}>
          <span className={p.swatchSpine} aria-hidden />
          its branch
        </span>
        <span className={p.legendItem}>
          <span className={p.swatchCapsule} aria-hidden />
          summary
        </span>
        <span className={p.legendItem} title="Raw context: the branch forked before the summary">
          <span className={p.swatchRaw} aria-hidden />
          reads the originals
        </span>
      </div>
      <LoadingRest />
    </div>
  );
}

/**
 * While a near-first page brings the rest of a big session ([R294]): what the graph shows
 * is HEAD's branch (its fork marks counting the versions to come), and the rest is on its way.
 */
function LoadingRest() {
  const complete = useSession((st) => st.complete);
  const trouble = useSession((st) => st.fillTrouble);
  if (complete) return null;
  return (
    <span
      className={p.loadingRest}
      role="status"
      title="A long session opens on your branch first; the older branches arrive in the background"
    >
      {trouble
        ? "Older branches could not be loaded yet — trying again…"
        : "Loading older branches…"}
    </span>
  );
}
