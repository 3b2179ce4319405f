"use client";

import { useState } from "react";
import type { NodeId } from "@/lib/engine/ids";
import { firstLine } from "@/lib/engine/wire-node";
import { useSession } from "@/components/session/session-context";
import type { SessionState } from "@/components/session/session-store";
import p from "./panel.module.css";

/** How each kind reads in the prompt listing. */
const ROLE: Readonly<Record<string, string>> = {
  root: "System",
  user: "You",
  assistant: "Reply",
  tool: "Tool",
  summary: "Summary",
  notice: "Notice",
};

/** Long prompts list their first lines this many at a time. */
const PAGE = 200;

const selectNodes = (s: SessionState) => s.nodes;

/**
 * The line above the listing. The tokens are the messages' own (Spindle's count of their
 * text); the provider's count of the whole prompt (`promptTokens`, the reply's "in") differs
 * — each message's framing on the wire, tool definitions, what the provider leaves out —
 * so when it does the line says both rather than leave two numbers that seem to disagree.
 */
export function readTotalText(count: number, total: number, promptTokens?: number): string {
  const n = (x: number) => x.toLocaleString("en");
  const messages = `${n(count)} ${count === 1 ? "message" : "messages"}`;
  const counted =
    promptTokens === undefined || promptTokens === total
      ? ""
      : ` (the model counted ${n(promptTokens)} for the whole prompt)`;
  return `It read ${messages} · ${n(total)} tokens of text${counted}, in this order:`;
}

/**
 * What a call read (issue 20, "What did it read?"): the exact prompt, one line per message
 * in prompt order with its tokens, each a link that brings its card into view. The reads
 * are the stamped provenance (`reads`), so this is what the model was given, summary
 * included — not a reconstruction.
 */
export function ReadList({
  reads,
  promptTokens,
  onReveal,
}: {
  readonly reads: readonly NodeId[];
  /** The provider's count of the prompt, when the reply recorded it. */
  readonly promptTokens?: number | undefined;
  readonly onReveal: (id: NodeId) => void;
}) {
  const nodes = useSession(selectNodes);
  const [shown, setShown] = useState(PAGE);
  let total = 0;
  for (const id of reads) total += nodes.get(id)?.tokenCount ?? 0;
  return (
    <>
      <p className={p.readTotal}>{readTotalText(reads.length, total, promptTokens)}</p>
      <ol className={p.readList} aria-label="What it read">
        {reads.slice(0, shown).map((id, i) => {
          const node = nodes.get(id);
          const text =
            node === undefined ? "(deleted since)" : firstLine(node.content) || "(empty)";
          return (
            <li key={id} className={p.readItem}>
              <button
                type="button"
                className={p.readLink}
                onClick={() => onReveal(id)}
                title="Show it in the graph"
              >
                <span className={p.readIndex}>{i + 1}</span>
                <span className={p.readRole}>{ROLE[node?.kind ?? ""] ?? "Message"}</span>
                <span className={p.readText}>{text}</span>
                <span className={p.readTokens}>{(node?.tokenCount ?? 0).toLocaleString("en")}</span>
              </button>
            </li>
          );
        })}
      </ol>
      {reads.length > shown && (
        <button type="button" className={p.button} onClick={() => setShown((n) => n + PAGE)}>
          Show {Math.min(PAGE, reads.length - shown)} more
        </button>
      )}
    </>
  );
}
