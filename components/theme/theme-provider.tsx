"use client";

import { ThemeProvider as NextThemes } from "next-themes";
import type { ReactNode } from "react";

/**
 * Light or dark, following the system until the user picks one (remembered in
 * localStorage). The resolved theme lands on <html data-theme>, which app/tokens.css reads.
 * Its pre-hydration script runs under the page's CSP nonce.
 */
export function ThemeProvider({ children, nonce }: { children: ReactNode; nonce: string }) {
  return (
    <NextThemes
      attribute="data-theme"
      defaultTheme="system"
      enableSystem
      disableTransitionOnChange
      nonce={nonce}
    >
      {children}
    </NextThemes>
  );
}
