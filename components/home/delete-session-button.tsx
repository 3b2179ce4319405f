"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { deleteSessionAction } from "@/app/s/[id]/actions";
import { cx } from "@/components/ui/cx";
import { pageDrafts } from "@/components/chat/drafts";
import s from "./home.module.css";

/** Deletes a session (all its branches) after a confirmation. */
export function DeleteSessionButton(props: {
  id: string;
  title: string;
  /** Called once the session is gone; the page is refreshed otherwise. */
  onDeleted?: () => void;
}) {
  const { id, title, onDeleted } = props;
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  return (
    <button
      className={cx("icon-btn session-delete", s.sessionDelete)}
      aria-label={`Delete ${title}`}
      title="Delete session"
      disabled={busy}
      onClick={async () => {
        if (!window.confirm(`Delete "${title}" and every branch in it? This cannot be undone.`))
          return;
        setBusy(true);
        const result = await deleteSessionAction(id);
        setBusy(false);
        if (result.ok) pageDrafts.forget(id);
        if (result.ok) (onDeleted ?? router.refresh)();
        else window.alert(`The session could not be deleted: ${result.error.message}`);
      }}
    >
      ×
    </button>
  );
}
