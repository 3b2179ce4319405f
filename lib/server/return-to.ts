/** A `?next=` target: only a path of this site (never `//host` or a full URL). */
export function returnTo(raw: string | string[] | undefined): string {
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value && /^\/(?![/\\])/.test(value) ? value : "/";
}
