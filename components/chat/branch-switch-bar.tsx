"use client";

import { useState } from "react";
import type { NodeId } from "@/lib/engine/ids";
import { useSession } from "@/components/session/session-context";
import { useCompare } from "@/components/compare/compare-context";
import styles from "./head-bar.module.css";

/**
 * After a search hit opened another branch (HEAD moved to it), the page says so and offers
 * the two branches side by side: the one opened and the one you were on.
 */
export function BranchSwitchBar({ from }: { readonly from: NodeId }) {
  const compare = useCompare();
  const headId = useSession((s) => s.session.headId);
  const known = useSession((s) => s.nodes.get(from) !== undefined);
  const [open, setOpen] = useState(true);
  if (!open || headId === null || headId === from || !known) return null;
  return (
    <div className={styles.bar} role="status" aria-label="Branch switched">
      <p className={styles.text}>
        This result is on another branch: you are now on it. Your previous branch is kept.
      </p>
      <button type="button" className="btn" onClick={() => compare.open(headId, from)}>
        Compare with the branch you were on
      </button>
      <button
        type="button"
        className="icon-btn"
        aria-label="Dismiss"
        onClick={() => setOpen(false)}
      >
        ×
      </button>
    </div>
  );
}
