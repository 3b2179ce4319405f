import type { Metadata } from "next";
import type { ReactNode } from "react";
import { SearchProvider } from "@/components/search/search-launcher";
import "./globals.css";

export const metadata: Metadata = {
  title: "Spindle",
  description: "Chat with LLMs in conversations that branch, fold and remember what was read.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <SearchProvider>{children}</SearchProvider>
      </body>
    </html>
  );
}
