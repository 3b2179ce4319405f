export { cx } from "@/components/ui/cx";

function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => sameShallow(item, b[i]));
  }
  return false;
}

function sameShallow(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  return (
    keys.length === Object.keys(right).length && keys.every((k) => sameValue(left[k], right[k]))
  );
}

interface CardProps {
  readonly id: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/**
 * The memo equality of the node components. The layout is recomputed whenever the ledger
 * changes (every streamed delta), which gives every card a fresh `data` object; comparing
 * the data by value keeps the cards that did not change from re-rendering. Positions are not
 * compared: React Flow's wrapper places the card, the card never reads them.
 */
export function sameCard(prev: CardProps, next: CardProps): boolean {
  return prev.id === next.id && sameShallow(prev.data, next.data);
}
