/** A form value as trimmed text; null when blank or absent. */
export function formText(form: FormData, name: string): string | null {
  const value = form.get(name);
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}
