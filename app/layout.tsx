import type { Metadata } from "next";
import type { ReactNode } from "react";
import "katex/dist/katex.min.css";
import "./tokens.css";
import { SearchProvider } from "@/components/search/search-launcher";
import "./globals.css";
import { ThemeProvider } from "@/components/theme/theme-provider";

export const metadata: Metadata = {
  title: "Spindle",
  description: "Chat with LLMs in conversations that branch, fold and remember what was read.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    // next-themes sets data-theme on <html> before hydration; React is told not to mind.
    <html lang="en" suppressHydrationWarning>
      <body>
        <ThemeProvider>
          <SearchProvider>{children}</SearchProvider>
        </ThemeProvider>
      </body>
    </html>
  );
}
