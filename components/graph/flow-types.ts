import type { NodeId } from "@/lib/engine/ids";
import type { NodeKind, NodeStatus } from "@/lib/engine/types";

/**
 * What the graph draws, as plain data. Each type maps 1:1 onto React Flow's `Node` / `Edge`
 * (session-graph.tsx assigns them to those types, so the compiler checks the mapping), but
 * nothing here imports React: the layout stays a pure, unit-testable function.
 */

/** Provenance marking of one card: glows (read by the selected call), dims, or neither. */
export type Glow = "glow" | "dim" | null;

export interface Point {
  readonly x: number;
  readonly y: number;
}

/** How a conversation node's card looks, apart from its text. */
export type TurnLook = {
  readonly kind: NodeKind;
  readonly status: NodeStatus;
  readonly head: boolean;
  readonly spine: boolean;
  /** Branch children; a fork badge shows when more than one. */
  readonly forks: number;
  /** `index/count` among the predecessor's alternatives, when there are several. */
  readonly sibling: string | null;
  /** The root of a spawned sub-agent branch. */
  readonly spawned: boolean;
  /** Drawn inside an expanded capsule's frame. */
  readonly covered: boolean;
  readonly glow: Glow;
  /** Files sent with the message (a paperclip mark when any). */
  readonly attachments: number;
};

/** A conversation node (ROOT, user, assistant, tool). */
export type TurnData = TurnLook & {
  /**
   * The first line of content, truncated; a tool call's name when the content is empty.
   * The layout's cards carry it; the page's do not: a turn card reads its node's text from
   * the store, so the page's cards that look alike share one data object ([R138]).
   */
  readonly text?: string;
};

/** A raw-context port on the capsule's bottom edge, at the fork's position in the segment. */
export type Port = {
  readonly id: string;
  /** 0..1 along the capsule, segment start on the left. */
  readonly at: number;
};

/** The folded active summary: it stands in for the covered nodes (graph.md, the capsule). */
export type CapsuleData = {
  readonly summaryId: NodeId;
  /** The real turns under it (through nesting). */
  readonly turns: number;
  /** A nested summary: how many summaries it names (each a capsule of its own); else 0. */
  readonly summaries: number;
  readonly tokensSaved: number;
  readonly text: string;
  readonly ports: readonly Port[];
  readonly spine: boolean;
  /** HEAD rests on a covered node (a raw checkout inside the segment). */
  readonly head: boolean;
  readonly glow: Glow;
  /** Reads of the selected call that are folded inside (they glow once expanded). */
  readonly readsInside: number;
};

/**
 * The expanded capsule: a frame whose top row is the capsule itself, where it was when
 * folded, and below it the covered nodes drawn in place (the originals) — or, for a nested
 * summary, the capsules of the summaries it names.
 */
export type FrameData = {
  readonly summaryId: NodeId;
  readonly turns: number;
  readonly summaries: number;
  readonly tokensSaved: number;
  readonly text: string;
  readonly spine: boolean;
  readonly head: boolean;
  readonly glow: Glow;
};

/** A side leaf hanging off its predecessor: a notice, a relic, an inert summary. */
export type SideData = {
  readonly kind: "notice" | "relic" | "summary";
  readonly text: string;
  readonly status: NodeStatus;
  readonly glow: Glow;
};

interface FlowNodeBase<T extends string, D> {
  readonly id: string;
  readonly type: T;
  readonly position: Point;
  readonly width: number;
  readonly height: number;
  readonly data: D;
}

export type TurnFlowNode = FlowNodeBase<"turn", TurnData>;
export type CapsuleFlowNode = FlowNodeBase<"capsule", CapsuleData>;
/** Emitted before the cards, so it is drawn behind the ones it frames. */
export type FrameFlowNode = FlowNodeBase<"frame", FrameData>;
export type SideFlowNode = FlowNodeBase<"side", SideData>;
export type FlowNode = TurnFlowNode | CapsuleFlowNode | FrameFlowNode | SideFlowNode;

/**
 * `tree`: predecessor → node. `raw`: a branch that left the covered segment and renders raw
 * (dashed, "raw context"). `side`: a side leaf's tether.
 */
/** `spawn`: into a sub-agent's branch, from the reply that called it. */
export type EdgeVariant = "tree" | "raw" | "side" | "spawn";

export type EdgeData = {
  readonly variant: EdgeVariant;
  readonly spine: boolean;
  readonly dim: boolean;
  readonly faded: boolean;
};

export interface FlowEdge {
  readonly id: string;
  readonly type: "spindle";
  readonly source: string;
  readonly target: string;
  readonly sourceHandle: string;
  readonly targetHandle: string;
  readonly data: EdgeData;
  readonly label?: string;
}

/**
 * The lines of a model, read through the card each leads into. Every card hangs under at
 * most one card, so a card names its line (whose id is the card's): a large graph's page
 * holds each line on its card and makes the line object only for a card drawn ([R138]).
 */
export interface Lines {
  /** The card the line into `card` comes from; null for a card with none (ROOT, a frame). */
  sourceOf(card: FlowNode): string | null;
  /** The line into `card`, the same object while the card is; null for a card with none. */
  into(card: FlowNode): FlowEdge | null;
}

/** Where each arrow key leads from a drawn node (graph.md, Interaction). */
export interface NavEntry {
  readonly up: string | null;
  readonly down: string | null;
  readonly left: string | null;
  readonly right: string | null;
}

export interface GraphLayout {
  readonly nodes: FlowNode[];
  readonly edges: FlowEdge[];
  readonly nav: ReadonlyMap<string, NavEntry>;
}

/** Handle ids shared by the layout and the node components. */
export const HANDLE = {
  in: "in",
  out: "out",
  side: "side",
  port: (position: number) => `fork-${position}`,
} as const;

/** How far the capsule's raw-context ports stay from its rounded ends, in flow pixels. */
export const PORT_INSET = 26;

/** Card geometry, in flow pixels. */
export const SIZE = {
  turn: { width: 220, height: 72 },
  capsule: { width: 300, height: 96 },
  side: { width: 168, height: 52 },
  /** Between adjacent cards of one family / of different parents. */
  gap: 28,
  cousinGap: 56,
  sideGap: 20,
  /** Layer pitch: the tallest card plus room for edges. */
  row: 128,
  /** Around the expanded capsule's contents; its capsule sits `framePad` below its top. */
  framePad: 14,
  /** Room for the capsule at the top of the frame even around a single column. */
  frameMinWidth: 340,
} as const;
