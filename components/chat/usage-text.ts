import type { NodeMetadata } from "@/lib/engine/types";

/**
 * A reply's token counts as the provider reported them ([R254]): the prompt tokens sent, of
 * which the provider served some from its prompt cache (when it says), and the reply's own.
 * `null` when the reply carries no usage (the offline model, an older ledger).
 */
export function usageText(
  usage: NodeMetadata["usage"],
): { readonly text: string; readonly title: string } | null {
  if (usage === undefined) return null;
  const n = (x: number) => x.toLocaleString("en");
  const cached = usage.cachedTokens;
  const text =
    `${n(usage.promptTokens)} in` +
    (cached === undefined ? "" : ` (${n(cached)} cached)`) +
    ` · ${n(usage.completionTokens)} out`;
  const title =
    `Tokens: ${n(usage.promptTokens)} sent in the prompt` +
    (cached === undefined
      ? " (the provider did not say how many it had cached)"
      : `, ${n(cached)} of them served from the provider's prompt cache`) +
    `; ${n(usage.completionTokens)} in the reply.`;
  return { text, title };
}
