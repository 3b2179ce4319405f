"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { errorOf } from "@/components/ui/api-error";
import { cx } from "@/components/ui/cx";
import { PASSWORD_LENGTH } from "@/lib/auth/password-length";
import styles from "./account.module.css";

/** Email-and-password sign-in or sign-up against better-auth's endpoints. */
export function AuthForm({ mode, next }: { mode: "sign-in" | "sign-up"; next: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const body = {
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
      ...(mode === "sign-up" ? { name: String(form.get("name") ?? "") } : {}),
    };
    setBusy(true);
    setError(null);
    try {
      const res = await fetch(`/api/auth/${mode}/email`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      if (!res.ok) {
        setError(await errorOf(res, `That did not work (${res.status}).`));
        return;
      }
      router.replace(next);
      router.refresh();
    } catch {
      setError("The server could not be reached.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className={styles.form} onSubmit={submit}>
      {mode === "sign-up" && (
        <label>
          Name
          <input name="name" autoComplete="name" required maxLength={100} />
        </label>
      )}
      <label>
        Email
        <input name="email" type="email" autoComplete="email" required maxLength={320} />
      </label>
      <label>
        Password
        <input
          name="password"
          type="password"
          autoComplete={mode === "sign-up" ? "new-password" : "current-password"}
          required
          minLength={mode === "sign-up" ? PASSWORD_LENGTH.min : 1}
          maxLength={PASSWORD_LENGTH.max}
        />
      </label>
      {error && (
        <p className={cx("auth-error", styles.error)} role="alert">
          {error}
        </p>
      )}
      <button className={cx("btn btn-primary", styles.submit)} type="submit" disabled={busy}>
        {mode === "sign-up" ? "Create account" : "Sign in"}
      </button>
    </form>
  );
}
