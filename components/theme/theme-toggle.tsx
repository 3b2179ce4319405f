"use client";

import { useTheme } from "next-themes";
import { useResolvedTheme } from "./use-resolved-theme";

/** Switches between the light and dark themes; the choice is remembered in this browser. */
export function ThemeToggle() {
  const { setTheme } = useTheme();
  const theme = useResolvedTheme();
  const label =
    theme === null
      ? "Switch theme"
      : theme === "dark"
        ? "Switch to light theme"
        : "Switch to dark theme";
  return (
    <button
      type="button"
      className="btn icon-only theme-toggle"
      aria-label={label}
      title={label}
      onClick={() => setTheme(theme === "dark" ? "light" : "dark")}
    >
      <span aria-hidden="true">{theme === "dark" ? "☀" : "☾"}</span>
    </button>
  );
}
