/**
 * The engine: pure TypeScript over plain data (docs/spec.md). Everything the store, the
 * dispatcher, the routes and the UI use from it is exported here.
 */
export * from "./accept-summary";
export * from "./active-summaries";
export * from "./assert-never";
export * from "./attachment";
export * from "./auto-compact-decision";
export * from "./auto-compact-latch";
export * from "./branch-tip";
export * from "./build-graph";
export * from "./capsule-coverage";
export * from "./checkout-target";
export * from "./compare-branches";
export * from "./context-tokens";
export * from "./covers-ids-of";
export * from "./errors";
export * from "./events";
export * from "./find-cut-index";
export * from "./ids";
export * from "./ledger-index";
export * from "./meta-after-compaction";
export * from "./overflow-decision";
export * from "./plan-compaction";
export * from "./plan-delete-branch";
export * from "./plan-summary-chunks";
export * from "./plan-turn";
export * from "./provenance-marks";
export * from "./reads-of";
export * from "./render-context";
export * from "./render-message";
export * from "./renders-in-place";
export * from "./replay-prompt";
export * from "./resolve-budget";
export * from "./reveal-target";
export * from "./rewind-target";
export * from "./session-title";
export * from "./should-advance-head";
export * from "./should-auto-compact";
export * from "./side-leaf";
export * from "./spine-of";
export * from "./summary-audit";
export * from "./summary-draft";
export * from "./turns-since-compaction";
export * from "./types";
export * from "./validate-content";
