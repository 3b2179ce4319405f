"use client";

import { activeSummaries, summaryPolicyOf } from "@/lib/engine/active-summaries";
import { planCompaction } from "@/lib/engine/plan-compaction";
import { innerSummariesOf } from "@/lib/engine/summary-turns";
import type { SessionMeta } from "@/lib/engine/types";
import { useHeadView, useSession, type HeadView } from "@/components/session/session-context";
import type { SessionState } from "@/components/session/session-store";

/** Whether a manual compaction would do anything now, and if not, why not. */
export interface CompactReadiness {
  readonly ready: boolean;
  /** The notice the server would answer (shown as the disabled button's tooltip). */
  readonly reason: string | null;
}

const READY: CompactReadiness = { ready: true, reason: null };
const memo = new WeakMap<HeadView, CompactReadiness>();

/**
 * The manual plan of HEAD's view, by the engine's own `planCompaction` with the
 * latest-exchange keep of `/compact` ([R200], [R201]): when it is a notice the Compact
 * button is disabled with that notice as its reason, rather than answering it after a
 * click. O(spine), once per structural change (memoised on the head view).
 */
export function compactReadiness(
  view: HeadView,
  nodes: SessionState["nodes"],
  meta: SessionMeta,
): CompactReadiness {
  const hit = memo.get(view);
  if (hit) return hit;
  let answer = READY;
  const { rendering, spine } = view;
  if (rendering && spine.length > 0) {
    try {
      const get = (id: string) => nodes.get(id);
      const active = activeSummaries(meta, get);
      const plan = planCompaction({
        spine,
        rendering,
        activeSummaries: active,
        innerSummaries: innerSummariesOf(active, get),
        policy: summaryPolicyOf(meta),
        keepRecentTokens: 0,
        keep: "latest-exchange",
      });
      if (plan.kind === "notice") answer = { ready: false, reason: plan.message };
    } catch {
      // A ledger mid-update plans next time; the server decides meanwhile.
      answer = READY;
    }
  }
  memo.set(view, answer);
  return answer;
}

export function useCompactReadiness(): CompactReadiness {
  const view = useHeadView();
  const nodes = useSession((s) => s.nodes);
  const meta = useSession((s) => s.session.meta);
  return compactReadiness(view, nodes, meta);
}
