"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { cx } from "@/components/ui/cx";
import styles from "./account-menu.module.css";

export interface AccountMenuProps {
  readonly name: string;
  /** False in single-user mode: there is nobody to sign out. */
  readonly accounts: boolean;
  readonly isAdmin: boolean;
  /** The chat header's form: the name links to the account page; no admin link. */
  readonly compact?: boolean;
}

/** Signs out through better-auth and goes to the sign-in page. */
export async function signOut(router: ReturnType<typeof useRouter>): Promise<void> {
  await fetch("/api/auth/sign-out", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  router.replace("/sign-in");
  router.refresh();
}

/** The signed-in user in the header: account settings, the admin page, sign-out. */
export function AccountMenu({
  name,
  accounts,
  isAdmin,
  compact = false,
  className,
}: AccountMenuProps & { className?: string | undefined }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  if (!accounts) return null;
  return (
    <nav className={cx(styles.menu, compact && styles.compact, className)} aria-label="Account">
      {compact ? (
        <Link className={cx("btn btn-quiet", styles.name)} href="/account" title="Your account">
          {name}
        </Link>
      ) : (
        <>
          <span className={styles.name} title="Signed in">
            {name}
          </span>
          <Link className="btn btn-quiet" href="/account">
            Account
          </Link>
        </>
      )}
      {isAdmin && !compact && (
        <Link className="btn btn-quiet" href="/admin">
          Admin
        </Link>
      )}
      <button
        className="btn btn-quiet"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          await signOut(router);
        }}
      >
        Sign out
      </button>
    </nav>
  );
}
