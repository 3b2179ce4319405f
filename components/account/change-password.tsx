"use client";

import { useId, useState, type FormEvent } from "react";
import { errorOf } from "@/components/ui/api-error";
import { cx } from "@/components/ui/cx";
import { PASSWORD_LENGTH } from "@/lib/auth/password-length";
import { NewPasswordInput } from "./new-password-input";
import styles from "./account.module.css";

/**
 * Change your own password: the current one, the new one twice. Other devices are signed
 * out by the server (better-auth's `/change-password` behind Spindle's throttle, [R202]);
 * this browser stays signed in. `onChanged` runs after a success (the forced-change page
 * goes on to the app).
 */
export function ChangePassword({
  heading = "Change password",
  onChanged,
}: {
  heading?: string;
  onChanged?: () => void;
}) {
  const headingId = useId();
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const currentPassword = String(data.get("currentPassword") ?? "");
    const newPassword = String(data.get("newPassword") ?? "");
    setDone(false);
    if (newPassword !== String(data.get("confirmPassword") ?? "")) {
      setError("The two new passwords differ.");
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const res = await fetch("/api/auth/change-password", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ currentPassword, newPassword }),
      });
      if (!res.ok) {
        setError(await errorOf(res, `The password was not changed (${res.status}).`));
        return;
      }
      form.reset();
      setDone(true);
      onChanged?.();
    } catch {
      setError("The server could not be reached.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className={styles.card} aria-labelledby={headingId}>
      <h2 id={headingId}>{heading}</h2>
      <form className={styles.form} onSubmit={submit}>
        <label>
          Current password
          <input
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            required
            maxLength={PASSWORD_LENGTH.max}
          />
        </label>
        <label>
          New password
          <NewPasswordInput name="newPassword" />
        </label>
        <label>
          New password again
          <NewPasswordInput name="confirmPassword" />
        </label>
        <p className={styles.note}>
          Changing it signs you out everywhere else; this browser stays signed in.
        </p>
        {error && (
          <p className={cx("auth-error", styles.error)} role="alert">
            {error}
          </p>
        )}
        {done && (
          <p className={styles.note} role="status">
            Password changed. Your other devices were signed out.
          </p>
        )}
        <button className={cx("btn btn-primary", styles.submit)} type="submit" disabled={busy}>
          Change password
        </button>
      </form>
    </section>
  );
}
