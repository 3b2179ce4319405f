import type { FlowEdge, NavEntry } from "./flow-types";

export type NavKey = "up" | "down" | "left" | "right";

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/**
 * Arrow-key moves along the drawn edges (graph.md, Interaction): up to the predecessor, down
 * to a child, left/right among the cards that share a predecessor; a side leaf is reached by
 * moving right off the end of its family. Down prefers the child on HEAD's spine, so the
 * arrows follow the active branch; elsewhere it takes the oldest child. `edges` must list
 * each card's children left to right, as the layout emits them. Linear.
 *
 * An expanded capsule's frame has no edges of its own: it stands between the segment's
 * parent and the first card inside it.
 */
export function buildNav(
  edges: readonly FlowEdge[],
  roots: readonly string[],
  frames: readonly { readonly id: string; readonly down: string | null }[],
): Map<string, NavEntry> {
  const parentOf = new Map<string, string>();
  const children = new Map<string, string[]>();
  const sides = new Map<string, string[]>();
  const spine = new Set<string>();
  for (const e of edges) {
    parentOf.set(e.target, e.source);
    if (e.data.variant === "side") push(sides, e.source, e.target);
    else push(children, e.source, e.target);
    if (e.data.spine) spine.add(e.target);
  }

  const nav = new Map<string, NavEntry>();
  const family = (list: readonly string[], owner: string | null, side: boolean) => {
    list.forEach((id, i) => {
      const kids = children.get(id) ?? [];
      const firstSide = side ? undefined : sides.get(id)?.[0];
      nav.set(id, {
        up: owner,
        down: kids.find((kid) => spine.has(kid)) ?? kids[0] ?? null,
        left: list[i - 1] ?? (side ? owner : null),
        right: list[i + 1] ?? firstSide ?? null,
      });
    });
  };
  family(roots, null, false);
  for (const [owner, list] of children) family(list, owner, false);
  for (const [owner, list] of sides) family(list, owner, true);

  for (const frame of frames) {
    const up = frame.down === null ? null : (parentOf.get(frame.down) ?? null);
    nav.set(frame.id, { up, down: frame.down, left: null, right: null });
  }
  return nav;
}

/** The node an arrow key moves to from `from`, or null when there is none that way. */
export function navigate(
  nav: ReadonlyMap<string, NavEntry>,
  from: string,
  key: NavKey,
): string | null {
  return nav.get(from)?.[key] ?? null;
}
