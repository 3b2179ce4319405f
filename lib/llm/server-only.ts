/**
 * The provider layer holds the API key, so it must never run in a browser. Next's
 * `server-only` package is not a dependency here; this guard fails loudly instead if a
 * client component ever pulls the module in.
 */
if (typeof window !== "undefined") {
  throw new Error("lib/llm is server-only: it must not be imported by client components.");
}

export {};
