import type { NodeId, SessionId } from "../engine/ids";

/** A piece of a snippet; `hit` pieces are what the query matched (the UI marks them). */
export interface SnippetSegment {
  readonly text: string;
  readonly hit: boolean;
}

interface HitBase {
  readonly sessionId: SessionId;
  readonly sessionTitle: string;
  /** The session's last activity (ISO 8601). */
  readonly updatedAt: string;
  readonly snippet: readonly SnippetSegment[];
}

/** A sealed user, assistant or summary node whose text, or a text attachment of which, matched. */
export interface NodeHit extends HitBase {
  readonly kind: "user" | "assistant" | "summary";
  readonly nodeId: NodeId;
  readonly seq: number;
  /**
   * Whether the hit lies on the branch HEAD has checked out: the node is on HEAD's spine
   * (for a summary: the last node it covers is). False means a dead branch.
   */
  readonly onHeadSpine: boolean;
  /**
   * Set when the match is in one of the message's text attachments (a text file or a PDF's
   * text, [R279]): the snippet is cut from that file (its name, then its text).
   */
  readonly attachment?: { readonly id: string; readonly name: string };
}

/** A session whose title matched; its snippet is the title. */
export interface TitleHit extends HitBase {
  readonly kind: "title";
  readonly nodeId: null;
  readonly seq: null;
  readonly onHeadSpine: true;
}

export type SearchHit = NodeHit | TitleHit;

export interface SearchPage {
  readonly results: readonly SearchHit[];
  /** Pass back as `cursor` for the next page; null on the last one. */
  readonly nextCursor: string | null;
}
