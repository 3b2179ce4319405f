"use client";

import { useEffect, useRef } from "react";
import type { AttachmentCaps } from "@/lib/files/limits";
import {
  selectStreaming,
  useSession,
  useSessionStoreApi,
} from "@/components/session/session-context";
import { useDraft } from "./drafts";
import type { AttachmentDraft } from "./attachment-draft";
import { overTotal, sendBlocker, visionWarning } from "./attachment-checks";
import { AttachButton, AttachmentTray } from "./attachment-tray";
import { useModels } from "./model-catalogue";
import { readsImages } from "./reads-images";
import { useDraftFiles } from "./use-attachment-draft";
import { pasteFiles } from "./use-file-drop";
import { useCompare } from "@/components/compare/compare-context";
import { SeveralModels, type SeveralModelsState } from "./several-models";
import { parseComposer, SLASH_HELP } from "./slash-command";
import type { SessionActions } from "./use-session-actions";
import { waitReason } from "./wait-reason";
import { cx } from "@/components/ui/cx";
import { PHONE_QUERY, useMediaQuery } from "./use-narrow-screen";
import styles from "./composer.module.css";

/**
 * The message box: Enter sends, Shift+Enter breaks the line, `/` opens the commands. Its
 * draft is kept per session in local storage until sent (issue 21, `useDraft`): the server
 * renders an empty box; once hydrated the box shows the saved draft. Files join the message
 * by the paperclip, a drop (on the whole chat pane, `useFileDrop`) or a pasted image, each
 * uploaded at once and shown as a chip above the box (issue 24).
 */
export function Composer({
  actions,
  files: draftFiles,
  caps,
  several,
}: {
  actions: SessionActions;
  /** The models the next message goes to (the page's: the header's picker opens them too). */
  several: SeveralModelsState;
  /** The message's files (the page's draft: a drop on the transcript lands there too). */
  files: AttachmentDraft;
  caps: AttachmentCaps;
}) {
  const sessionId = useSession((s) => s.session.id);
  // Every edit is the draft; sending empties the box, which forgets it.
  const [text, setText] = useDraft(sessionId);
  const phone = useMediaQuery(PHONE_QUERY);
  const busy = useSession((s) => s.busy);
  // Another tab's reply streaming in this session also holds the turn.
  const streaming = useSession(selectStreaming);
  const setError = useSession((s) => s.setError);
  const setNotice = useSession((s) => s.setNotice);
  const wait = waitReason(busy, streaming);
  // The "wait for …" notice Enter showed goes once the wait is over (it stayed on, untrue),
  // unless another notice has replaced it meanwhile. Read when the wait ends, not subscribed.
  const store = useSessionStoreApi();
  const waitShown = useRef<string | null>(null);
  useEffect(() => {
    if (wait !== null || waitShown.current === null) return;
    if (store.getState().notice === waitShown.current) setNotice(null);
    waitShown.current = null;
  }, [wait, store, setNotice]);
  const model = useSession((s) => s.model);
  const sessionModel = useSession((s) => s.session.meta.settings?.model);
  const models = several.chosen;
  const compare = useCompare();
  const files = useDraftFiles(draftFiles);
  const settings = useSession((s) => s.session.meta.settings);
  const catalogue = useModels();
  const warning = visionWarning(files, {
    reads: readsImages(model, settings, catalogue),
    model: model.offline ? model.label : (models[0] ?? settings?.model ?? model.name),
    offline: model.offline,
  });

  const submit = async () => {
    if (text.trim() === "" && files.length === 0) return;
    // Enter while the turn is held says why nothing was sent; the draft stays in the box.
    if (wait !== null) {
      waitShown.current = wait;
      setNotice(wait);
      return;
    }
    const cmd = parseComposer(text);
    if (cmd.kind === "invalid") {
      setError(cmd.message);
      return;
    }
    // Files go with a message; a command leaves them in the draft.
    const withFiles = cmd.kind === "message" && files.length > 0;
    if (withFiles) {
      const blocker = sendBlocker(files, caps);
      if (blocker !== null) {
        setNotice(blocker);
        return;
      }
    } else if (text.trim() === "") return;
    const draft = text;
    // Cleared at once so the box is ready; put back if the server refused the request.
    setText("");
    const taken = withFiles ? draftFiles.take() : [];
    const ids = taken.flatMap((f) => (f.state.kind === "ready" ? [f.state.ref.id] : []));
    let ok = true;
    switch (cmd.kind) {
      case "message":
        if (models.length >= 2) {
          // The replies open side by side as soon as the message is written and fill in
          // as they stream.
          ok = await actions.sendToModels(cmd.text, models, ids, (userId) =>
            compare.openReplies(userId),
          );
        } else ok = await actions.send(cmd.text, { attachments: ids });
        break;
      case "compact":
        ok = await actions.compact();
        break;
      case "task":
        ok = await actions.task(cmd.prompt);
        break;
      case "send":
        ok = await actions.sendTo(cmd.sessionId, cmd.text);
        break;
      case "model":
        ok = await actions.setModel(cmd.name);
        break;
    }
    // A refused message comes back to be fixed; `/compact` has nothing to fix (its error
    // says why), so the box stays empty.
    if (!ok && cmd.kind !== "compact") setText((current) => (current === "" ? draft : current));
    if (ok) draftFiles.sent(taken);
    else draftFiles.putBack(taken);
  };

  const showHelp = text.startsWith("/") && !text.includes(" ");
  return (
    <form
      className={styles.composer}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      onPaste={pasteFiles(draftFiles.add)}
    >
      <AttachmentTray
        files={files}
        onRemove={draftFiles.remove}
        blocker={overTotal(files, caps)}
        warning={warning}
      />
      {showHelp && (
        <ul className={styles.slashHelp} aria-label="Commands">
          {SLASH_HELP.filter((h) => h.usage.startsWith(text.split(" ")[0] ?? "")).map((h) => (
            <li key={h.usage}>
              <code>{h.usage}</code> {h.what}
            </li>
          ))}
        </ul>
      )}
      {!model.offline && <SeveralModels state={several} current={sessionModel ?? model.name} />}
      {models.length >= 2 && (
        <span className={styles.asking} role="status">
          Asking {models.join(", ")}
        </span>
      )}
      <AttachButton onFiles={draftFiles.add} />
      <textarea
        className={cx("field", styles.box)}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            void submit();
          }
        }}
        // A phone's box is too narrow for the hint on one line (the "/" help still opens).
        placeholder={phone ? "Message" : "Message, or / for commands"}
        aria-label="Message"
        rows={Math.min(8, Math.max(1, text.split("\n").length))}
      />
      {busy === "turn" ? (
        <StopButton onStop={actions.stop} />
      ) : (
        <button
          type="submit"
          className="btn btn-primary"
          disabled={wait !== null || (text.trim() === "" && files.length === 0)}
          title={wait ?? undefined}
        >
          Send
        </button>
      )}
    </form>
  );
}

/**
 * How long a Stop that has just taken Send's place ignores clicks: the second click of a
 * double-clicked Send lands on it, and stopped the reply the first click had started.
 */
const STOP_ARMS_AFTER_MS = 500;

function StopButton({ onStop }: { onStop: () => void }) {
  const shownAt = useRef<number | null>(null);
  useEffect(() => {
    shownAt.current = performance.now();
  }, []);
  return (
    <button
      type="button"
      className="btn"
      aria-label="Stop"
      onClick={() => {
        const at = shownAt.current;
        if (at === null || performance.now() - at < STOP_ARMS_AFTER_MS) return;
        onStop();
      }}
    >
      Stop
    </button>
  );
}
