"use client";

import { useState, type FormEvent } from "react";
import type { ApiKeyInfo } from "@/lib/engine/types";
import { LocalTime } from "@/components/ui/local-time";
import { errorOf } from "@/components/ui/api-error";
import { readAnswer } from "@/components/ui/read-answer";
import { apiKeyCreatedSchema } from "@/lib/http/answers";
import { cx } from "@/components/ui/cx";
import styles from "./account.module.css";
import { Cell, DataTable, Row } from "./data-table";

/** Personal API keys: create (shown once), list, revoke. */
export function ApiKeys({ initial }: { initial: readonly ApiKeyInfo[] }) {
  const [keys, setKeys] = useState(initial);
  const [fresh, setFresh] = useState<{ name: string; key: string } | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function create(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const name = String(new FormData(form).get("name") ?? "");
    setError(null);
    const res = await fetch("/api/keys", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name }),
    });
    if (!res.ok) {
      setError(await errorOf(res, "The key could not be created."));
      return;
    }
    const body = await readAnswer(res, apiKeyCreatedSchema);
    setFresh({ name: body.name, key: body.key });
    setKeys((k) => [
      {
        id: body.id,
        name: body.name,
        prefix: body.prefix,
        createdAt: body.createdAt,
        lastUsedAt: null,
      },
      ...k,
    ]);
    form.reset();
  }

  async function revoke(id: string) {
    const res = await fetch(`/api/keys/${id}`, { method: "DELETE" });
    if (res.ok) setKeys((k) => k.filter((x) => x.id !== id));
    else setError(await errorOf(res, "Could not revoke."));
  }

  return (
    <section className={styles.card} aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <p className={styles.note}>
        For scripts: send <code>Authorization: Bearer &lt;key&gt;</code>. A key acts as you on every
        route of the API (docs/api.md).
      </p>
      {fresh && (
        <div role="status">
          <p>
            Your new key <strong>{fresh.name}</strong> — copy it now, it is not shown again:
          </p>
          <code className={styles.secret} aria-label="New API key">
            {fresh.key}
          </code>
        </div>
      )}
      <form className={cx(styles.inlineForm, styles.row)} onSubmit={create}>
        <label>
          Name
          <input name="name" required maxLength={100} placeholder="e.g. backup script" />
        </label>
        <button className="btn btn-primary" type="submit">
          Create key
        </button>
      </form>
      {error && (
        <p className={cx("auth-error", styles.error)} role="alert">
          {error}
        </p>
      )}
      {keys.length > 0 && (
        <DataTable
          label="API keys table"
          columns={["Name", "Key", "Created", "Last used", "hidden:Revoke"]}
        >
          {keys.map((k) => (
            <Row key={k.id}>
              <Cell label="Name">{k.name}</Cell>
              <Cell label="Key">
                <code>{k.prefix}…</code>
              </Cell>
              <Cell label="Created">
                <LocalTime iso={k.createdAt} />
              </Cell>
              <Cell label="Last used">
                {k.lastUsedAt ? <LocalTime iso={k.lastUsedAt} /> : "never"}
              </Cell>
              <Cell>
                <button
                  className="btn"
                  aria-label={`Revoke ${k.name}`}
                  onClick={() => void revoke(k.id)}
                >
                  Revoke
                </button>
              </Cell>
            </Row>
          ))}
        </DataTable>
      )}
    </section>
  );
}
