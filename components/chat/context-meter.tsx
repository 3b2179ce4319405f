"use client";

import { useHeadView, useSession } from "@/components/session/session-context";
import { cx } from "@/components/ui/cx";
import styles from "./context-meter.module.css";

/** How full the model's window is for HEAD's rendering; auto-compaction fires at 80%. */
export function ContextMeter() {
  const { tokens, rendering } = useHeadView();
  const model = useSession((s) => s.model);
  const window = useSession((s) => s.session.meta.settings?.contextWindow ?? s.model.window);
  const share = window > 0 ? tokens / window : 0;
  const level = share >= 0.8 ? "high" : share >= 0.6 ? "mid" : "low";
  const summarised = rendering?.messages.some((m) => m.kind === "summary") ?? false;
  return (
    <div
      className={cx(
        "meter",
        styles.meter,
        level === "mid" && styles.mid,
        level === "high" && styles.high,
      )}
      title={`${tokens.toLocaleString("en")} of ${window.toLocaleString("en")} tokens in context${summarised ? " (a summary stands in for earlier turns)" : ""}. Auto-compaction at 80%.${model.notice ? ` ${model.notice}` : ""}`}
      role="meter"
      aria-label="Context usage"
      aria-valuemin={0}
      aria-valuemax={window}
      aria-valuenow={Math.min(tokens, window)}
      aria-valuetext={`${Math.round(share * 100)}% of the context window: ${tokens.toLocaleString("en")} of ${window.toLocaleString("en")} tokens`}
    >
      <div className={styles.bar} aria-hidden="true">
        <div
          className={styles.fill}
          style={{ width: `${Math.min(100, share * 100).toFixed(1)}%` }}
        />
        <div className={styles.mark} />
      </div>
      <span className={styles.text} aria-hidden="true">
        {Math.round(share * 100)}% · {tokens.toLocaleString("en")} / {window.toLocaleString("en")}
      </span>
    </div>
  );
}
