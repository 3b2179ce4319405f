/**
 * A stand-in origin to resolve `?next=` against: whatever resolves to another origin is not
 * one of this site's paths. Never shown or fetched.
 */
const SELF = "http://spindle.invalid";

/** The pages a sign-in may return to: the list, a session, and the account/admin pages. */
const PAGES = [
  /^\/$/,
  /^\/s\/[0-9A-Za-z_-]{1,64}$/,
  /^\/account(\/password)?$/,
  /^\/admin$/,
  /^\/import$/,
];

/**
 * A `?next=` target ([R140]): parsed as a URL against this site after removing what browsers
 * strip or rewrite (tabs, CR and LF anywhere; backslashes read as slashes; leading/trailing
 * controls and spaces), it must stay on this site's origin and name one of its pages; its
 * query is kept, serialised by the URL parser (so no control character reaches a
 * `Location` header). Anything else is the home page.
 */
export function returnTo(raw: string | string[] | undefined): string {
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value) return "/";
  const cleaned = trimControls(value.replace(/[\t\n\r]/g, "").replace(/\\/g, "/"));
  if (!cleaned.startsWith("/") || cleaned.startsWith("//")) return "/";
  let url: URL;
  try {
    url = new URL(cleaned, SELF);
  } catch {
    return "/";
  }
  if (url.origin !== SELF || !PAGES.some((p) => p.test(url.pathname))) return "/";
  return `${url.pathname}${url.search}`;
}

/** Removes leading and trailing C0 controls and spaces, as the URL parser does. */
function trimControls(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && s.charCodeAt(start) <= 0x20) start++;
  while (end > start && s.charCodeAt(end - 1) <= 0x20) end--;
  return s.slice(start, end);
}
