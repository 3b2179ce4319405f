import { createHash } from "node:crypto";
import { z } from "zod";
import { attachmentTokens, sanitiseFileName, type ReadableFile } from "../files/judge";
import { readFile, type PdfReading } from "../files/read-file";
import { MAX_ATTACHMENTS_PER_MESSAGE } from "../files/limits";
import { sessionSettingsSchema } from "../http/schemas";
import { isSideLeafKind } from "../engine/side-leaf";
import { tokens } from "../engine/ids";
import { yieldToEventLoop } from "../yield-to-event-loop";
import { EngineError } from "../engine/errors";
import { asNodeId, type NodeId } from "../engine/ids";
import {
  activeSetProblem,
  summaryCoversProblem,
  type SummaryCheckLookup,
} from "../engine/check-summaries";
import {
  SUMMARY_POLICIES,
  type ImportPlan,
  type LedgerNode,
  type NodeMetadata,
  type SessionMeta,
  type SessionRecord,
} from "../engine/types";

/** The JSON export of one session: the whole ledger, append-only history included. */
export interface LedgerFile {
  readonly format: "spindle.ledger";
  readonly version: 1;
  readonly exportedAt: string;
  readonly session: SessionRecord;
  readonly nodes: readonly LedgerNode[];
  /** The bytes of the attachments the nodes name (R271), base64, once per SHA-256. */
  readonly blobs?: readonly LedgerBlob[];
}

export interface LedgerBlob {
  readonly sha256: string;
  readonly size: number;
  readonly base64: string;
}

export function toLedgerFile(
  session: SessionRecord,
  nodes: readonly LedgerNode[],
  now: Date,
  blobs: readonly LedgerBlob[] = [],
): LedgerFile {
  return {
    format: "spindle.ledger",
    version: 1,
    exportedAt: now.toISOString(),
    session,
    nodes,
    ...(blobs.length > 0 ? { blobs } : {}),
  };
}

const id = z.string().min(1).max(64);

/** The longest node an import accepts (a reply far past any model's output). */
export const MAX_NODE_CHARS = 1_000_000;

/**
 * The node metadata keys the engine reads, typed as the engine needs them; other keys pass
 * through as data nobody interprets.
 */
const nodeMetadataSchema = z
  .object({
    covers_ids: z.array(id).optional(),
    covers_summaries: z.boolean().optional(),
    model: z.string().max(200).optional(),
    finish_reason: z.string().max(64).optional(),
    tool_calls: z
      .array(
        z.object({
          id: z.string().min(1).max(128),
          name: z.string().min(1).max(128),
          arguments: z.string(),
        }),
      )
      .max(128)
      .optional(),
    tool_call_id: z.string().min(1).max(128).optional(),
    usage: z
      .object({
        promptTokens: z.number().int().min(0),
        completionTokens: z.number().int().min(0),
        cachedTokens: z.number().int().min(0).optional(),
      })
      .optional(),
    error: z.object({ code: z.string().max(64), message: z.string().max(10_000) }).optional(),
    kept_user_turns: z.number().int().min(0).optional(),
    // Types, sizes and token counts are derived again from the blob on import.
    attachments: z
      .array(
        z.object({
          id,
          name: z.string().max(1000),
          mime: z.string().max(100),
          size: z.number().int().min(0),
          sha256: z.string().regex(/^[0-9a-f]{64}$/, "sha256 is 64 lower-case hex digits"),
          tokens: z.number().optional(),
          width: z.number().optional(),
          height: z.number().optional(),
        }),
      )
      .max(MAX_ATTACHMENTS_PER_MESSAGE)
      .optional(),
  })
  .loose();

const nodeSchema = z.object({
  id,
  predecessorId: id.nullable(),
  seq: z.number().int().min(0),
  kind: z.enum(["root", "user", "assistant", "tool", "summary", "notice"]),
  content: z.string().max(MAX_NODE_CHARS, `A node holds at most ${MAX_NODE_CHARS} characters.`),
  status: z.enum(["complete", "streaming", "interrupted", "error"]),
  callerId: id.nullable(),
  metadata: nodeMetadataSchema,
  reads: z.array(id),
  // Counted again on import: a file's counts are not trusted.
  tokenCount: z.number().optional(),
  // Both databases store it: year 1 to 9999 (PostgreSQL refuses year 0).
  createdAt: z.iso
    .datetime({ offset: true })
    .refine((v) => /^(?!0000)\d{4}-/.test(v), "createdAt must be a date from year 1 on"),
});

/**
 * Session meta as an import may set it: the keys the engine reads, through the same settings
 * schema as `PATCH /api/sessions/:id`; anything else (a failure latch, unknown keys) is
 * dropped. `_last_summary_text` is derived from the summary node, never taken from the file.
 * The active set is `_last_summary_id` or `_active_summary_ids`, never both.
 */
const importedMetaSchema = z.object({
  _last_summary_id: id.optional(),
  _active_summary_ids: z.array(id).max(10_000).optional(),
  settings: sessionSettingsSchema.optional(),
  // The older spelling of settings.policy.
  policy: z
    .enum(SUMMARY_POLICIES, {
      error: `The policy must be one of ${SUMMARY_POLICIES.join(", ")}.`,
    })
    .optional(),
});

const fileFields = {
  format: z.literal("spindle.ledger"),
  version: z.literal(1),
  session: z.object({
    title: z.string().max(200),
    headId: id.nullable(),
    meta: importedMetaSchema,
  }),
  blobs: z
    .array(
      z.object({
        sha256: z.string().regex(/^[0-9a-f]{64}$/, "sha256 is 64 lower-case hex digits"),
        size: z.number().int().min(0),
        base64: z.string(),
      }),
    )
    .max(10_000)
    .optional(),
};

/** A whole ledger file, every node checked (small files, tests). */
export const ledgerFileSchema = z.object({ ...fileFields, nodes: z.array(nodeSchema).min(1) });

/**
 * The file around its nodes: what `POST /api/import` parses first, so the node count is
 * capped before any node is checked ({@link parseLedgerNodes} checks them in batches).
 */
export const ledgerShellSchema = z.object({ ...fileFields, nodes: z.array(z.unknown()).min(1) });

export type ParsedLedgerFile = z.infer<typeof ledgerFileSchema>;
export type LedgerShell = z.infer<typeof ledgerShellSchema>;

/** Nodes checked (or re-ided) between two yields to the event loop. */
const BATCH = 1_000;

/**
 * Checks a file's nodes against the node schema in batches, yielding to the event loop
 * between them: a 50,000-node file never holds the server for its whole length. The node
 * cap is checked first (413).
 */
export async function parseLedgerNodes(
  shell: LedgerShell,
  limits: Pick<ImportLimits, "maxNodes">,
): Promise<ParsedLedgerFile> {
  checkNodeCount(shell.nodes.length, limits.maxNodes);
  const nodes: ParsedLedgerFile["nodes"] = [];
  for (let i = 0; i < shell.nodes.length; i += BATCH) {
    const batch = z.array(nodeSchema).safeParse(shell.nodes.slice(i, i + BATCH));
    if (!batch.success) {
      const issue = batch.error.issues[0];
      const [index, ...rest] = issue?.path ?? [];
      const where = `nodes.${i + Number(index)}${rest.length ? `.${rest.join(".")}` : ""}`;
      throw new EngineError("invalid_request", `${where}: ${issue?.message ?? "invalid node"}`);
    }
    nodes.push(...batch.data);
    await yieldToEventLoop();
  }
  return { ...shell, nodes };
}

function checkNodeCount(count: number, maxNodes: number): void {
  if (count > maxNodes) {
    throw new EngineError(
      "payload_too_large",
      `The ledger has ${count.toLocaleString("en")} nodes; this server imports at most ${maxNodes.toLocaleString("en")}.`,
    );
  }
}

/** How an import is checked beyond its shape. */
export interface ImportLimits {
  /** Most nodes one file may hold (413 past it). */
  readonly maxNodes: number;
  /** Counts a node's tokens (a file's own counts are not trusted). */
  readonly count: (text: string) => number;
  /** Reads a PDF blob's text again (R271, R277): an upload's limits hold for an import too. */
  readonly pdf: PdfReading;
}

/**
 * Re-ids an exported ledger for import as a new session, checking that it is one tree that
 * every route can serve: exactly one ROOT, every predecessor and caller present, no cycle,
 * nothing hanging off a summary or notice, HEAD a conversation node, and each summary's
 * `covers_ids` a contiguous chain segment of real turns starting where the summary hangs.
 * covers_ids, reads and the active-summary pointer are translated; token counts are
 * recounted; a node left `streaming` arrives `interrupted`.
 *
 * @throws EngineError `invalid_request` (400) naming the first problem, or
 *   `payload_too_large` (413) past `limits.maxNodes`.
 */
export async function planImport(
  file: ParsedLedgerFile,
  newId: () => NodeId,
  limits: ImportLimits,
): Promise<ImportPlan> {
  checkNodeCount(file.nodes.length, limits.maxNodes);
  const byOld = new Map(file.nodes.map((n) => [n.id, n] as const));
  if (byOld.size !== file.nodes.length) throw invalid("duplicate node ids");
  const roots = file.nodes.filter((n) => n.kind === "root");
  const root = roots[0];
  if (roots.length !== 1 || !root || root.predecessorId !== null)
    throw invalid("exactly one ROOT, with no predecessor");
  const fresh = new Map<string, NodeId>();
  for (const n of [...file.nodes].sort((a, b) => a.seq - b.seq)) fresh.set(n.id, newId());
  const map = (old: string, what: string): NodeId => {
    const v = fresh.get(old);
    if (!v) throw invalid(`${what} ${old} names no node of the file`);
    return v;
  };
  // Every chain must reach ROOT without revisiting a node. Nodes already known to reach
  // ROOT end a walk early, so the whole check is linear in the ledger.
  const reachesRoot = new Set<string>([root.id]);
  for (const n of file.nodes) {
    const path: string[] = [];
    const onPath = new Set<string>();
    let cur: ParsedNode | undefined = n;
    while (cur && !reachesRoot.has(cur.id)) {
      if (onPath.has(cur.id)) throw invalid(`a cycle through ${cur.id}`);
      onPath.add(cur.id);
      path.push(cur.id);
      if (cur.predecessorId === null)
        throw invalid(`node ${cur.id} has no predecessor but is not ROOT`);
      cur = byOld.get(cur.predecessorId);
      if (!cur) throw invalid(`node ${n.id} has a missing predecessor`);
    }
    for (const id of path) reachesRoot.add(id);
  }
  const summaryLookup: SummaryCheckLookup = (old) => {
    const n = byOld.get(old);
    return n === undefined
      ? undefined
      : {
          id: asNodeId(n.id),
          kind: n.kind,
          predecessorId: n.predecessorId === null ? null : asNodeId(n.predecessorId),
          metadata: n.metadata,
        };
  };
  const resolved = new Map<NodeId, readonly NodeId[]>();
  for (const n of file.nodes) {
    const pred = n.predecessorId === null ? undefined : byOld.get(n.predecessorId);
    if (pred && isSideLeafKind(pred.kind)) {
      throw invalid(`node ${n.id} hangs off a ${pred.kind}, which nothing may follow`);
    }
    const summary = n.kind === "summary" ? summaryLookup(asNodeId(n.id)) : undefined;
    if (summary !== undefined) {
      const problem = summaryCoversProblem(summary, summaryLookup, resolved);
      if (problem !== null) throw invalid(problem);
    } else if (n.metadata.covers_ids !== undefined || n.metadata.covers_summaries !== undefined) {
      throw invalid(`node ${n.id} is not a summary but has covers_ids`);
    }
  }
  const blobs = await verifiedBlobs(file.blobs ?? [], limits.pdf);
  const attachments: NonNullable<ImportPlan["attachments"]>[number][] = [];
  const sorted = [...file.nodes].sort((a, b) => a.seq - b.seq);
  const nodes: ImportPlan["nodes"][number][] = [];
  // Token counting is the costly part: it runs in batches, yielding between them.
  for (const [seq, n] of sorted.entries()) {
    if (seq % BATCH === BATCH - 1) await yieldToEventLoop();
    const metadata: Record<string, unknown> = { ...n.metadata };
    if (n.metadata.covers_ids) {
      metadata["covers_ids"] = n.metadata.covers_ids.map((c) => map(c, "covers_ids entry"));
    }
    let fileTokens = 0;
    if (n.metadata.attachments !== undefined) {
      if (n.kind !== "user")
        throw invalid(`node ${n.id} is not a user message but has attachments`);
      const refs = n.metadata.attachments.map((ref) => {
        const blob = blobs.get(ref.sha256);
        if (!blob) throw invalid(`attachment ${ref.id} names a blob the file does not carry`);
        if (ref.size !== blob.data.byteLength) {
          throw invalid(`attachment ${ref.id}'s size does not match its blob`);
        }
        const name = sanitiseFileName(ref.name);
        const j = blob.judged;
        const tokenCount = attachmentTokens(j, name, limits.count);
        fileTokens += tokenCount;
        const made = {
          id: newId() as string,
          name,
          mime: j.mime,
          size: blob.data.byteLength,
          sha256: ref.sha256,
          tokens: tokenCount,
          ...(j.kind === "image" ? { width: j.width, height: j.height } : {}),
        };
        attachments.push({ ...made, kind: j.kind, nodeId: map(n.id, "node") });
        return made;
      });
      metadata["attachments"] = refs;
    }
    nodes.push({
      id: map(n.id, "node"),
      predecessorId: n.predecessorId === null ? null : map(n.predecessorId, "predecessor"),
      seq,
      kind: n.kind,
      content: n.content,
      status: n.status === "streaming" ? ("interrupted" as const) : n.status,
      callerId: n.callerId === null ? null : map(n.callerId, "caller"),
      metadata: metadata as NodeMetadata,
      reads: n.reads.filter((r) => fresh.has(r)).map((r) => map(r, "read")),
      tokenCount: tokens(limits.count(n.content) + fileTokens),
      createdAt: n.createdAt,
    });
  }
  // An imported session keeps the title it came with: no automatic title replaces it.
  const meta: Record<string, unknown> = { titleSource: "user" };
  const { settings, policy, _last_summary_id: last, _active_summary_ids: set } = file.session.meta;
  const kept: Record<string, unknown> = Object.fromEntries(
    Object.entries(settings ?? {}).filter(([, v]) => v !== null),
  );
  // The older top-level spelling lands where the policy lives now.
  if (policy !== undefined && kept["policy"] === undefined && policy !== "rolling-single") {
    kept["policy"] = policy;
  }
  if (Object.keys(kept).length > 0) meta["settings"] = kept;
  if (policy === "rolling-single" && settings?.policy === undefined) meta["policy"] = policy;
  if (last !== undefined && set !== undefined) {
    throw invalid("_last_summary_id and _active_summary_ids both name an active set");
  }
  const activeIds = set ?? (last === undefined ? [] : [last]);
  const problem = activeSetProblem(activeIds.map(asNodeId), summaryLookup);
  if (problem !== null) throw invalid(problem);
  if (set !== undefined) {
    if (set.length > 0) meta["_active_summary_ids"] = set.map((s) => map(s, "summary"));
  } else if (last !== undefined) {
    meta["_last_summary_id"] = map(last, "summary");
    meta["_last_summary_text"] = byOld.get(last)?.content ?? "";
  }
  const rootId = map(root.id, "root");
  const head = file.session.headId;
  const headNode = head === null ? undefined : byOld.get(head);
  if (headNode && isSideLeafKind(headNode.kind)) {
    throw invalid("HEAD names a summary or notice");
  }
  return {
    title: file.session.title || "Imported chat",
    headId: headNode ? map(headNode.id, "head") : rootId,
    rootId,
    meta: meta as SessionMeta,
    nodes,
    ...(attachments.length > 0
      ? {
          attachments,
          // Only the blobs some node names are kept.
          blobs: [...new Set(attachments.map((a) => a.sha256))].map((sha256) => {
            const b = blobs.get(sha256) as VerifiedBlob;
            return { sha256, data: b.data, text: b.judged.kind === "text" ? b.judged.text : null };
          }),
        }
      : {}),
  };
}

interface VerifiedBlob {
  readonly data: Uint8Array;
  readonly judged: ReadableFile;
}

/**
 * The file's blobs, each decoded and checked (R271): its bytes must have the SHA-256 and size
 * the file names, and be a kind of file the server accepts, judged again by content — a
 * file's word for a type is not trusted any more than an upload's — and a PDF's text read
 * again under the server's limits (R277).
 */
async function verifiedBlobs(
  list: readonly LedgerBlob[],
  pdf: PdfReading,
): Promise<Map<string, VerifiedBlob>> {
  const out = new Map<string, VerifiedBlob>();
  for (const b of list) {
    const data = new Uint8Array(Buffer.from(b.base64, "base64"));
    if (data.byteLength !== b.size) throw invalid(`blob ${b.sha256}'s size does not match`);
    if (createHash("sha256").update(data).digest("hex") !== b.sha256) {
      throw invalid(`blob ${b.sha256}'s SHA-256 does not match its bytes`);
    }
    const judged = await readFile(data, pdf);
    if (judged.kind === "refused") throw invalid(`blob ${b.sha256}: ${judged.reason}`);
    out.set(b.sha256, { data, judged });
  }
  return out;
}

type ParsedNode = ParsedLedgerFile["nodes"][number];

function invalid(what: string): EngineError {
  return new EngineError("invalid_request", `The ledger file is not valid: ${what}.`);
}
