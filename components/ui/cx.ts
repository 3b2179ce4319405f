/** Joins the truthy class names (CSS-module lookups may be undefined). */
export function cx(...names: readonly (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(" ");
}
