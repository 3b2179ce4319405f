/**
 * The tokens a summary may take: a tenth of the model's window, at least 256, at most 4,096.
 * The Compactor and the compaction eval (bench/compaction-eval) both size summaries by it.
 */
export function summaryBudgetOf(window: number): number {
  return Math.max(256, Math.min(4_096, Math.floor(window * 0.1)));
}
