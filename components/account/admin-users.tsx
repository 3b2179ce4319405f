"use client";

import { useActionState, useTransition } from "react";
import { createUserAction, setDisabledAction, type AdminResult } from "@/app/admin/actions";
import { LocalTime } from "@/components/ui/local-time";
import { cx } from "@/components/ui/cx";
import styles from "./account.module.css";

export interface UserRow {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  readonly role: string | null;
  readonly disabled: boolean;
  readonly createdAt: string;
}

/** The admin's list of accounts, with create and disable. */
export function AdminUsers({ users, selfId }: { users: readonly UserRow[]; selfId: string }) {
  const [created, create, creating] = useActionState<AdminResult | null, FormData>(
    createUserAction,
    null,
  );
  const [pending, start] = useTransition();
  return (
    <>
      <section className={styles.card} aria-labelledby="users-title">
        <h2 id="users-title">Accounts</h2>
        <table className={styles.dataTable}>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Since</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {users.map((u) => (
              <tr key={u.id}>
                <td>{u.name}</td>
                <td>{u.email}</td>
                <td>{u.role ?? "user"}</td>
                <td>
                  <LocalTime iso={u.createdAt} format="date" />
                </td>
                <td>
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
                </td>
              </tr>
            ))}
          </tbody>
        </table>
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
            <input name="password" type="password" required minLength={8} maxLength={256} />
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
