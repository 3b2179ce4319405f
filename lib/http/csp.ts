/**
 * The Content Security Policy of every page (docs/security.md, [R149]): scripts run only
 * with this response's nonce — Next.js reads it from the request's policy and puts it on its
 * own bootstrap and chunk scripts; `'strict-dynamic'` lets those load the rest — so an
 * injected `<script>` or inline handler never runs, even if sanitising the model's output
 * failed. Styles keep `'unsafe-inline'`: React Flow and the markdown renderer set inline
 * styles, and a style cannot run code. `unsafe-eval` only for the dev server's hot reload.
 */

/** A fresh, unguessable nonce: 128 random bits, base64. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/** The header the proxy hands the nonce to the page renderer in. */
export const NONCE_HEADER = "x-nonce";

export function pagePolicy(nonce: string, dev: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
