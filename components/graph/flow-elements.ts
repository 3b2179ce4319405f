import { versionLabel } from "@/components/session/versions";
import type { GraphRow, GraphView } from "@/lib/engine/build-graph";
import type { NodeId } from "@/lib/engine/ids";
import { attachmentsOf } from "@/lib/engine/types";
import type { ProvenanceMarks } from "@/lib/engine/provenance-marks";
import { cardText } from "./card-text";
import { firstLine } from "@/lib/engine/wire-node";
import type { CapsuleInfo, DrawNode } from "./draw-tree";
import {
  HANDLE,
  SIZE,
  type CapsuleFlowNode,
  type EdgeData,
  type FlowEdge,
  type FrameFlowNode,
  type Glow,
  type Lines,
  type Point,
  type SideFlowNode,
  type TurnFlowNode,
} from "./flow-types";

/** The label of an edge whose branch forked before the summary and reads the originals. */
export const RAW_LABEL = "reads the originals";

/** What every element builder needs to know beyond the card itself. */
export interface ElementContext {
  readonly view: GraphView;
  readonly marks: ProvenanceMarks | null;
}

export function glowOf(id: NodeId, marks: ProvenanceMarks | null): Glow {
  if (marks === null) return null;
  return marks.glowing.has(id) ? "glow" : "dim";
}

/**
 * A stand-in glows when the call read its summary (or one nested under it) — never for what
 * it stands in for.
 */
function standInGlow(capsule: CapsuleInfo, marks: ProvenanceMarks | null): Glow {
  if (marks === null) return null;
  const read =
    marks.glowing.has(capsule.summary.id) || capsule.nested.some((id) => marks.glowing.has(id));
  return read ? "glow" : "dim";
}

/** Reads folded inside this capsule (turns, or summaries now nested): they glow unfolded. */
function readsInside(capsule: CapsuleInfo, marks: ProvenanceMarks | null): number {
  if (marks === null || marks.insideCapsule.length === 0) return 0;
  const inside = new Set<NodeId>([...capsule.turns, ...capsule.nested]);
  return marks.insideCapsule.filter((id) => inside.has(id)).length;
}

export function turnNode(card: DrawNode, position: Point, ctx: ElementContext): TurnFlowNode {
  const row = card.row;
  return {
    id: card.id,
    type: "turn",
    position,
    ...SIZE.turn,
    data: {
      kind: row.kind,
      text: cardText(row),
      status: row.status,
      head: row.id === ctx.view.headId,
      spine: row.onHeadSpine,
      forks: row.childCount,
      sibling: versionLabel(row.siblingIndex, row.siblingCount),
      spawned: row.callerId !== null && row.kind !== "tool",
      covered: card.covered,
      glow: glowOf(row.id, ctx.marks),
      attachments: attachmentsOf(row).length,
    },
  };
}

export function capsuleNode(
  card: DrawNode,
  capsule: CapsuleInfo,
  position: Point,
  marks: ProvenanceMarks | null,
): CapsuleFlowNode {
  const at = [...new Set(card.children.flatMap((child) => child.port ?? []))].sort((a, b) => a - b);
  return {
    id: card.id,
    type: "capsule",
    position,
    ...SIZE.capsule,
    data: {
      summaryId: capsule.summary.id,
      turns: capsule.turns.length,
      summaries: capsule.nested.length > 0 ? capsule.covered.length : 0,
      tokensSaved: capsule.summary.tokensSaved ?? 0,
      text: firstLine(capsule.summary.content),
      ports: at.map((i) => ({ id: HANDLE.port(i), at: (i + 0.5) / capsule.turns.length })),
      spine: capsule.spine,
      head: capsule.head,
      glow: standInGlow(capsule, marks),
      readsInside: readsInside(capsule, marks),
    },
  };
}

export function frameNode(
  capsule: CapsuleInfo,
  box: { readonly position: Point; readonly width: number; readonly height: number },
  marks: ProvenanceMarks | null,
): FrameFlowNode {
  return {
    id: capsule.summary.id,
    type: "frame",
    ...box,
    data: {
      summaryId: capsule.summary.id,
      turns: capsule.turns.length,
      summaries: capsule.nested.length > 0 ? capsule.covered.length : 0,
      tokensSaved: capsule.summary.tokensSaved ?? 0,
      text: firstLine(capsule.summary.content),
      spine: capsule.spine,
      head: capsule.head,
      glow: standInGlow(capsule, marks),
    },
  };
}

export function sideNode(
  row: GraphRow,
  position: Point,
  marks: ProvenanceMarks | null,
): SideFlowNode {
  const kind =
    row.superseded_summary === true ? "relic" : row.kind === "summary" ? "summary" : "notice";
  return {
    id: row.id,
    type: "side",
    position,
    ...SIZE.side,
    data: { kind, text: cardText(row), status: row.status, glow: glowOf(row.id, marks) },
  };
}

/**
 * The line into `target` from the card it hangs under. Each card is placed under one parent,
 * so the target names its edge: the id is the target's own string, which the page holds
 * already (an id `source->target` of its own was 7 MB at 100,000 nodes). React Flow keeps
 * nodes and edges apart, and labels the line "Edge from source to target".
 */
export function edge(
  source: string,
  target: string,
  handles: { readonly source: string; readonly target: string },
  data: EdgeData,
): FlowEdge {
  return {
    id: target,
    type: "spindle",
    source,
    target,
    sourceHandle: handles.source,
    targetHandle: handles.target,
    data,
    // Plain words on the picture; the precise term ("raw context") is in the docs.
    ...(data.variant === "raw" ? { label: RAW_LABEL } : {}),
  };
}

/** The {@link Lines} over a list of edges, by the card each leads into. */
export function linesOf(edges: Iterable<FlowEdge>): Lines {
  const byTarget = new Map<string, FlowEdge>();
  for (const e of edges) byTarget.set(e.target, e);
  return {
    sourceOf: (card) => byTarget.get(card.id)?.source ?? null,
    into: (card) => byTarget.get(card.id) ?? null,
  };
}
