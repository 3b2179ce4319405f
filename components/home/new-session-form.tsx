"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { newSessionAction } from "@/app/actions";
import { formText } from "@/components/ui/form-text";
import { SYSTEM_PROMPT_MAX_CHARS, TITLE_MAX_CHARS } from "@/lib/http/schemas";
import type { SummaryPolicy } from "@/lib/engine/types";
import { PolicyField } from "@/components/session/policy-field";
import s from "./home.module.css";

/**
 * A new session, with an optional title, system prompt and compaction policy. Refused input (a prompt past
 * the cap once its line breaks are counted, a NUL) is shown here and nothing typed is lost.
 * Nothing set is a plain new chat: it opens `/new`, where nothing is written until the first
 * message is sent, so trying the button leaves no empty session behind (as "New chat" in the
 * sidebar). A session given a title, a prompt or a policy is made at once, with them.
 */
export function NewSessionForm() {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [policy, setPolicy] = useState<SummaryPolicy>("rolling-single");
  return (
    <form
      className={s.create}
      onSubmit={async (e) => {
        e.preventDefault();
        const form = new FormData(e.currentTarget);
        const title = formText(form, "title");
        const systemPrompt = formText(form, "systemPrompt");
        const policy = form.get("policy");
        const plain = title === null && systemPrompt === null && policy === "rolling-single";
        if (plain) {
          router.push("/new");
          return;
        }
        setBusy(true);
        setError(null);
        const result = await newSessionAction({
          title: title ?? undefined,
          systemPrompt: systemPrompt ?? undefined,
          ...(typeof policy === "string" && policy !== "rolling-single"
            ? { settings: { policy: policy as SummaryPolicy } }
            : {}),
        });
        if (!result.ok) {
          setBusy(false);
          setError(result.error.message);
          return;
        }
        router.push(`/s/${result.value.id}`);
      }}
    >
      <input
        name="title"
        placeholder="Title (optional: named after the first reply)"
        aria-label="New session title"
        maxLength={TITLE_MAX_CHARS}
      />
      <button type="submit" className="btn btn-primary" disabled={busy}>
        New session
      </button>
      <details className={s.prompt}>
        <summary>System prompt and summaries</summary>
        <textarea
          name="systemPrompt"
          rows={4}
          maxLength={SYSTEM_PROMPT_MAX_CHARS}
          aria-label="System prompt"
          placeholder="You are a helpful assistant. (the default when left empty)"
        />
        <PolicyField
          name="policy"
          value={policy}
          onChange={setPolicy}
          labelClassName={s.policy}
          hintClassName={s.policyHint}
        />
      </details>
      {error && (
        <p className={s.error} role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
