"use client";

import { useRouter } from "next/navigation";
import { ChangePassword } from "./change-password";

/** The forced change's form: once the new password is set, on to the sessions. */
export function ForcedPasswordChange() {
  const router = useRouter();
  return (
    <ChangePassword
      heading="Choose a new password"
      onChanged={() => {
        router.replace("/");
        router.refresh();
      }}
    />
  );
}
