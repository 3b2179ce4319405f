import type { InputHTMLAttributes } from "react";
import { PASSWORD_LENGTH } from "@/lib/auth/password-length";

/**
 * A field for a password being set (change, confirm, an admin's initial or temporary one):
 * the length rule the server enforces, and a hint to password managers that it is new.
 */
export function NewPasswordInput(props: Omit<InputHTMLAttributes<HTMLInputElement>, "type">) {
  return (
    <input
      type="password"
      autoComplete="new-password"
      required
      minLength={PASSWORD_LENGTH.min}
      maxLength={PASSWORD_LENGTH.max}
      {...props}
    />
  );
}
