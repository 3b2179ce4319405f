import type { Metadata } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import "katex/dist/katex.min.css";
import "./tokens.css";
import { SearchProvider } from "@/components/search/search-launcher";
import "./globals.css";
import { ThemeProvider } from "@/components/theme/theme-provider";
import { NONCE_HEADER } from "@/lib/http/csp";

export const metadata: Metadata = {
  title: "Spindle",
  description: "Chat with LLMs in conversations that branch, fold and remember what was read.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The page's script nonce (proxy.ts): the theme's pre-hydration script carries it. Reading
  // a header renders every page per request, which a per-request nonce needs anyway.
  const nonce = (await headers()).get(NONCE_HEADER) ?? "";
  return (
    // next-themes sets data-theme on <html> before hydration; React is told not to mind.
    <html lang="en" suppressHydrationWarning>
      <body>
        <ThemeProvider nonce={nonce}>
          <SearchProvider>{children}</SearchProvider>
        </ThemeProvider>
      </body>
    </html>
  );
}
