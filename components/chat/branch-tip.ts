// The rule lives in the engine now: the session page's search landing uses it too.
export { branchTip, versionsUnder } from "@/lib/engine/branch-tip";
