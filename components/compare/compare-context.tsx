"use client";

import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from "react";
import type { NodeId } from "@/lib/engine/ids";
import { BranchCompare } from "./branch-compare";
import { RepliesCompare } from "./replies-compare";
import styles from "./compare.module.css";

interface CompareApi {
  /** Opens the compare view of two nodes' branches. */
  readonly open: (a: NodeId, b: NodeId) => void;
  /** Opens the replies to `parentId` side by side, `first` leading (issue 22). */
  readonly openReplies: (parentId: NodeId, first?: NodeId) => void;
}

const CompareContext = createContext<CompareApi | null>(null);

/**
 * Holds the compare view of the page below it (issue 20): opened from a version switcher,
 * from two nodes picked in the graph, or after a search hit switched branches. "Continue
 * from here" calls `onContinue` (a checkout) and closes the view.
 */
export function CompareProvider({
  children,
  onContinue,
}: {
  readonly children: ReactNode;
  readonly onContinue: (id: NodeId) => void;
}) {
  const [pair, setPair] = useState<
    | { kind: "branches"; a: NodeId; b: NodeId }
    | { kind: "replies"; parentId: NodeId; first: NodeId | null }
    | null
  >(null);
  const open = useCallback((a: NodeId, b: NodeId) => setPair({ kind: "branches", a, b }), []);
  const openReplies = useCallback(
    (parentId: NodeId, first?: NodeId) =>
      setPair({ kind: "replies", parentId, first: first ?? null }),
    [],
  );
  const api = useMemo(() => ({ open, openReplies }), [open, openReplies]);
  const dialog = useRef<HTMLDialogElement>(null);
  const headingId = useId();
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (pair !== null && !d.open) d.showModal();
    else if (pair === null && d.open) d.close();
  }, [pair]);
  const continueFrom = useCallback(
    (id: NodeId) => {
      onContinue(id);
      dialog.current?.close();
    },
    [onContinue],
  );
  return (
    <CompareContext.Provider value={api}>
      {children}
      <dialog
        ref={dialog}
        className={styles.dialog}
        aria-labelledby={headingId}
        onClose={() => setPair(null)}
      >
        {pair !== null && (
          <div className={styles.frame}>
            <div className={styles.top}>
              <h2 id={headingId} className={styles.heading}>
                {pair.kind === "branches" ? "Compare branches" : "Replies side by side"}
              </h2>
              <button
                type="button"
                className={styles.close}
                aria-label="Close the comparison"
                onClick={() => dialog.current?.close()}
              >
                ×
              </button>
            </div>
            {pair.kind === "branches" ? (
              <BranchCompare a={pair.a} b={pair.b} onContinue={continueFrom} />
            ) : (
              <RepliesCompare
                parentId={pair.parentId}
                first={pair.first}
                onContinue={continueFrom}
              />
            )}
          </div>
        )}
      </dialog>
    </CompareContext.Provider>
  );
}

const NONE: CompareApi = { open: () => undefined, openReplies: () => undefined };

/** The page's compare view (a no-op outside a CompareProvider). */
export function useCompare(): CompareApi {
  return useContext(CompareContext) ?? NONE;
}
