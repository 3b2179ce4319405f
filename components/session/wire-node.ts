/** A node as the wire carries it (docs/big-sessions.md): the server's type, one definition. */
export type { WireNode } from "@/lib/engine/wire-node";
