import type { ModelInfo } from "@/components/session/session-store";

/** The page's model as the browser store's tests give it: offline, an 8,192-token window. */
export const TEST_MODEL: ModelInfo = {
  label: "m",
  name: "m",
  offline: true,
  window: 8192,
  keepRecentTokens: 1000,
  notice: null,
  vision: false,
};
