"use client";

import { useTheme } from "next-themes";
import { useResolvedTheme } from "./use-resolved-theme";

/** The theme switch's words and act, for the toggle and for a menu item. */
export function useThemeSwitch(): { label: string; dark: boolean; toggle: () => void } {
  const { setTheme } = useTheme();
  const theme = useResolvedTheme();
  const label =
    theme === null
      ? "Switch theme"
      : theme === "dark"
        ? "Switch to light theme"
        : "Switch to dark theme";
  return {
    label,
    dark: theme === "dark",
    toggle: () => setTheme(theme === "dark" ? "light" : "dark"),
  };
}

/** Switches between the light and dark themes; the choice is remembered in this browser. */
export function ThemeToggle({ className }: { className?: string | undefined }) {
  const { label, dark, toggle } = useThemeSwitch();
  return (
    <button
      type="button"
      className={`btn icon-only theme-toggle${className ? ` ${className}` : ""}`}
      aria-label={label}
      title={label}
      onClick={toggle}
    >
      <span aria-hidden="true">{dark ? "☀" : "☾"}</span>
    </button>
  );
}
