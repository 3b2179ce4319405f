"use client";

import { useRouter } from "next/navigation";
import { useActionState, useId, useRef, useState, useTransition, type RefObject } from "react";
import { createUserAction, setDisabledAction, type AdminResult } from "@/app/admin/actions";
import { MenuDialog } from "@/components/session/menu-dialog";
import { NewPasswordInput } from "./new-password-input";
import { LocalTime } from "@/components/ui/local-time";
import { errorOf } from "@/components/ui/api-error";
import { cx } from "@/components/ui/cx";
import styles from "./account.module.css";
import { Cell, DataTable, Row } from "./data-table";

export interface UserRow {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  readonly role: string | null;
  readonly disabled: boolean;
  /** An admin set the password; the user must choose their own at next sign-in. */
  readonly temporaryPassword: boolean;
  readonly createdAt: string;
}

/** The admin's list of accounts, with create, disable and set a new password. */
export function AdminUsers({ users, selfId }: { users: readonly UserRow[]; selfId: string }) {
  const [created, create, creating] = useActionState<AdminResult | null, FormData>(
    createUserAction,
    null,
  );
  const [pending, start] = useTransition();
  const [resetting, setResetting] = useState<UserRow | null>(null);
  const [resetNote, setResetNote] = useState<string | null>(null);
  const resetRef = useRef<HTMLDialogElement>(null);
  return (
    <>
      <section className={styles.card} aria-labelledby="users-title">
        <h2 id="users-title">Accounts</h2>
        <DataTable
          label="Accounts table"
          columns={["Name", "Email", "Role", "Since", "Status", "Password"]}
        >
          {users.map((u) => (
            <Row key={u.id}>
              <Cell label="Name">{u.name}</Cell>
              <Cell label="Email">{u.email}</Cell>
              <Cell label="Role">{u.role ?? "user"}</Cell>
              <Cell label="Since">
                <LocalTime iso={u.createdAt} format="date" />
              </Cell>
              <Cell label="Status">
                {u.id === selfId ? (
                  "you"
                ) : (
                  <button
                    className="btn"
                    disabled={pending}
                    aria-label={`${u.disabled ? "Enable" : "Disable"} ${u.email}`}
                    onClick={() => start(() => void setDisabledAction(u.id, !u.disabled))}
                  >
                    {u.disabled ? "Enable" : "Disable"}
                  </button>
                )}
              </Cell>
              <Cell label="Password">
                {u.id === selfId ? (
                  <a href="/account">change yours</a>
                ) : (
                  <>
                    {u.temporaryPassword && <span className={styles.note}>temporary · </span>}
                    <button
                      className="btn"
                      aria-label={`Set a new password for ${u.email}`}
                      onClick={() => {
                        setResetting(u);
                        setResetNote(null);
                        resetRef.current?.showModal();
                      }}
                    >
                      Set password…
                    </button>
                  </>
                )}
              </Cell>
            </Row>
          ))}
        </DataTable>
        {resetNote && (
          <p className={styles.note} role="status">
            {resetNote}
          </p>
        )}
        <ResetPasswordDialog
          dialogRef={resetRef}
          user={resetting}
          onDone={(email) =>
            setResetNote(
              `Password set for ${email}. Their sign-ins were ended; they choose their own when they next sign in.`,
            )
          }
        />
      </section>
      <section className={styles.card} aria-labelledby="create-title">
        <h2 id="create-title">Create an account</h2>
        <form action={create} className={styles.inlineForm}>
          <label>
            Name
            <input name="name" required maxLength={100} />
          </label>
          <label>
            Email
            <input name="email" type="email" required maxLength={320} />
          </label>
          <label>
            Initial password
            <NewPasswordInput name="password" />
          </label>
          <button className="btn btn-primary" type="submit" disabled={creating}>
            Create account
          </button>
          {created && (
            <p className={created.ok ? styles.note : cx("auth-error", styles.error)} role="status">
              {created.message}
            </p>
          )}
        </form>
      </section>
    </>
  );
}

/**
 * The admin sets a new password for another account through better-auth's
 * `/admin/set-user-password` ([R202]); the server then ends the account's sign-ins and makes
 * it choose its own password at next sign-in.
 */
function ResetPasswordDialog({
  dialogRef,
  user,
  onDone,
}: {
  dialogRef: RefObject<HTMLDialogElement | null>;
  user: UserRow | null;
  onDone: (email: string) => void;
}) {
  const router = useRouter();
  const inputId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <MenuDialog
      dialogRef={dialogRef}
      heading={user ? `New password for ${user.email}` : "New password"}
      submitLabel="Set password"
      busy={busy}
      error={error}
      onClosed={() => setError(null)}
      onSubmit={async (form) => {
        if (!user) return;
        setBusy(true);
        setError(null);
        try {
          const res = await fetch("/api/auth/admin/set-user-password", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ userId: user.id, newPassword: String(form.get("password")) }),
          });
          if (!res.ok) {
            setError(await errorOf(res, `The password was not set (${res.status}).`));
            return;
          }
          dialogRef.current?.close();
          onDone(user.email);
          router.refresh();
        } catch {
          setError("The server could not be reached.");
        } finally {
          setBusy(false);
        }
      }}
    >
      <label htmlFor={inputId} className={styles.dialogLabel}>
        Temporary password (tell them; they must replace it when they sign in)
      </label>
      {/* Keyed on the account so each opening starts empty. */}
      <NewPasswordInput
        key={user?.id ?? "none"}
        id={inputId}
        name="password"
        className={styles.dialogInput}
      />
    </MenuDialog>
  );
}
