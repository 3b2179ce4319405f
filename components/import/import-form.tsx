"use client";

import Link from "next/link";
import { useId, useState, type FormEvent } from "react";
import type { ChatGptImportResult } from "@/lib/http/schemas";
import { detectImportFile } from "./import-file";
import { UploadStopped, uploadChatGpt } from "./upload";
import { errorBodyOf } from "@/components/ui/api-error";
import { sessionSchema } from "@/lib/http/answers";
import { readAnswer } from "@/components/ui/read-answer";
import styles from "./import.module.css";

type Phase =
  | { readonly kind: "idle" }
  | { readonly kind: "working"; readonly done: number; readonly total: number }
  | { readonly kind: "done" };

const post = (url: string, body: string) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A Spindle ledger file through `POST /api/import`, reported like one conversation. */
async function importLedger(
  text: string,
  nodes: number,
  fileName: string,
): Promise<ChatGptImportResult> {
  const res = await post("/api/import", text);
  if (res.ok) {
    const session = await readAnswer(res, sessionSchema);
    return {
      imported: [{ index: 0, sessionId: session.id, title: session.title, nodes }],
      failed: [],
    };
  }
  return {
    imported: [],
    failed: [
      {
        index: 0,
        title: fileName,
        error: await errorBodyOf(res, `The server answered ${res.status}.`),
      },
    ],
  };
}

/**
 * Imports a file chosen by the user: a Spindle JSON ledger, or a ChatGPT export
 * (`conversations.json`), told apart by shape. A ChatGPT export is sent in batches and every
 * conversation reported — a link to each new session, and why each refused one failed.
 */
export function ImportForm() {
  const inputId = useId();
  const hintId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });
  const [result, setResult] = useState<ChatGptImportResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const busy = phase.kind === "working";

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!file || busy) return;
    setError(null);
    setResult(null);
    const detected = detectImportFile(await file.text());
    if (detected.kind === "unknown") {
      setError(detected.reason);
      return;
    }
    const total = detected.kind === "ledger" ? 1 : detected.conversations.length;
    setPhase({ kind: "working", done: 0, total });
    try {
      setResult(
        detected.kind === "ledger"
          ? await importLedger(detected.text, detected.nodes, file.name)
          : await uploadChatGpt(detected.conversations, {
              post,
              wait,
              onProgress: (done, all) => setPhase({ kind: "working", done, total: all }),
            }),
      );
    } catch (err) {
      if (err instanceof UploadStopped) setResult(err.partial);
      setError(`The import stopped: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      setPhase({ kind: "done" });
    }
  };

  return (
    <section className={styles.panel} aria-labelledby={`${inputId}-title`}>
      <h2 id={`${inputId}-title`} className={styles.title}>
        Import conversations
      </h2>
      <form className={styles.form} onSubmit={submit}>
        <label htmlFor={inputId} className={styles.label}>
          File to import
        </label>
        <input
          id={inputId}
          className={styles.file}
          type="file"
          accept=".json,application/json"
          aria-describedby={hintId}
          disabled={busy}
          onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
        />
        <p id={hintId} className={styles.hint}>
          A Spindle session exported as JSON, or <code>conversations.json</code> from a ChatGPT data
          export (Settings → Data controls → Export data). Every conversation becomes a session with
          all its branches.
        </p>
        <div className={styles.actions}>
          <button type="submit" className={styles.primary} disabled={!file || busy}>
            {busy ? "Importing…" : "Import"}
          </button>
        </div>
      </form>

      <p className={styles.status} role="status" aria-live="polite">
        {phase.kind === "working"
          ? `Imported ${phase.done} of ${phase.total} conversation${phase.total === 1 ? "" : "s"}…`
          : result
            ? `Imported ${result.imported.length} of ${result.imported.length + result.failed.length}.`
            : ""}
      </p>
      {error && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
      {result && <Results result={result} />}
    </section>
  );
}

function Results({ result }: { result: ChatGptImportResult }) {
  const importedId = useId();
  const failedId = useId();
  return (
    <div className={styles.results}>
      {result.imported.length > 0 && (
        <>
          <h3 id={importedId} className={styles.subtitle}>
            Imported
          </h3>
          <ul className={styles.list} aria-labelledby={importedId}>
            {result.imported.map((s) => (
              <li key={s.sessionId} className={styles.item}>
                <Link className={styles.link} href={`/s/${s.sessionId}`}>
                  {s.title}
                </Link>
                <span className={styles.meta}>
                  {s.nodes - 1} message{s.nodes === 2 ? "" : "s"}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
      {result.failed.length > 0 && (
        <>
          <h3 id={failedId} className={styles.subtitle}>
            Not imported
          </h3>
          <ul className={styles.list} aria-labelledby={failedId}>
            {result.failed.map((f) => (
              <li key={f.index} className={`${styles.item} ${styles.failed}`}>
                <span className={styles.failedTitle}>
                  {f.title ?? `Conversation ${f.index + 1}`}
                </span>
                <span className={styles.reason}>{f.error.message}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
