"use client";

import { useSession, useSessionStoreApi } from "@/components/session/session-context";
import { cancelWaitingForRest } from "@/components/session/session-store";

/**
 * A click that needs the whole ledger (a version switch, a comparison, a tool's branch) on a
 * long session whose older branches are still arriving ([R294]) waits for them: this says
 * so where the click was made, on every screen size, and lets the user take it back.
 */
export function WaitingForRest() {
  const store = useSessionStoreApi();
  const wait = useSession((s) => s.waitingForRest);
  const head = useSession((s) => s.session.headId);
  const trouble = useSession((s) => s.fillTrouble);
  // Moving HEAD meanwhile drops it (what it was asked on is no longer shown).
  if (wait === null || wait.head !== head) return null;
  return (
    <div className="banner banner-notice" role="status" aria-busy="true">
      <span>
        {wait.label}…{" "}
        {trouble
          ? "The older branches of this long conversation could not be loaded yet; trying again."
          : "This long conversation is still loading its older branches; it happens as soon as they are here."}
      </span>
      <button type="button" className="btn" onClick={() => cancelWaitingForRest(store)}>
        Cancel
      </button>
    </div>
  );
}
