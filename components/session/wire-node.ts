import type { LedgerNode } from "@/lib/engine/types";

/**
 * A node as the wire carries it (docs/big-sessions.md): full (`partial` absent), lean
 * (`"reads"`: whole content, `reads` empty) or skeleton (`"skeleton"`: content is the card
 * label only, `reads` empty).
 *
 * MERGE: the server branch exports this exact type from `lib/engine/wire-node.ts`; at merge
 * this file becomes `export type { WireNode } from "@/lib/engine/wire-node";`.
 */
export type WireNode = LedgerNode & { readonly partial?: "reads" | "skeleton" };
