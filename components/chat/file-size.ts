/**
 * A file's size for people: "512 B", "12.3 KB", "4 MB". Counted in 1,024s, as the caps are
 * set (the default 10 MiB cap reads "10 MB"); one decimal under ten, whole numbers above.
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB"] as const;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const shown = value < 10 ? Math.round(value * 10) / 10 : Math.round(value);
  return `${shown.toLocaleString("en")} ${units[unit]}`;
}
