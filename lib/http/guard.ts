import type { z } from "zod";
import type { Actor } from "../auth/actor";
import { requireActor } from "../auth/authenticate";
import type { Workspace } from "../dispatcher/workspace";
import type { SessionId } from "../engine/ids";
import { sessionIdParam } from "./params";
import { services, type Services } from "../server/services";
import { checkHost, checkJsonBody, checkOrigin, readUploadedFile } from "./edge";
import type { AdmissionKind } from "./admission";
import { handle, readJson } from "./respond";

export interface GuardedRequest {
  readonly actor: Actor;
  /** The dispatcher as this actor sees it: every session id is checked against the owner. */
  readonly workspace: Workspace;
  readonly services: Services;
  /** The JSON body, parsed and capped (`SPINDLE_MAX_BODY_BYTES`, or the import cap). */
  json<S extends z.ZodType>(schema: S): Promise<z.infer<S>>;
  /** An upload's one file (`body: "multipart"` routes), capped by `SPINDLE_MAX_ATTACHMENT_BYTES`. */
  file(): Promise<{ name: string; bytes: Uint8Array }>;
  /**
   * The route's session id, shape-checked and owned by the actor (404 otherwise). Called
   * before the body or query is read, so someone else's session never answers 400.
   */
  ownedSession(params: Promise<{ id: string }>): Promise<SessionId>;
  /**
   * Registers long-running work (a turn, an event stream): the signal aborts when the
   * client goes or when the actor's credential is revoked ([R147]); call `release` when
   * the work ends.
   */
  track(): { readonly signal: AbortSignal; readonly release: () => void };
  /**
   * Takes one of the actor's places of `kind` ([R148]); answers the function that gives it
   * back. @throws EngineError 429 with `Retry-After` past the account's cap.
   */
  admit(kind: AdmissionKind): () => void;
  /**
   * For a read of the whole graph or ledger: a place among the actor's heavy reads when the
   * session is past `SPINDLE_HEAVY_READ_NODES` nodes (else nothing to give back).
   */
  admitRead(id: SessionId): Promise<() => void>;
}

/**
 * Every API route handler's checklist, in one place: the edge checks (Host, JSON body type,
 * Origin), then who is asking (401 when nobody), then the route's own call into the
 * workspace, with errors mapped to `{error:{code,message}}`.
 */
export function guarded(
  req: Request,
  fn: (g: GuardedRequest) => Promise<Response>,
  options: {
    bodyLimit?: "default" | "import";
    /**
     * The body type the route takes: JSON everywhere, except the attachment upload, the one
     * route that takes `multipart/form-data` (a type a cross-site form can send, so the
     * Origin check below is what stands in the way of forgery, docs/security.md).
     */
    body?: "json" | "multipart";
  } = {},
): Promise<Response> {
  return handle(async () => {
    const s = await services();
    checkHost(req, s.config);
    // A JSON route refuses any other body type before anything else (a cross-site form cannot
    // send JSON). The upload's type is checked when its file is read, after the session's
    // owner: someone else's session answers 404 whatever the body is.
    const multipart = options.body === "multipart";
    if (!multipart) checkJsonBody(req, "json");
    const actor = await requireActor(req, s.authDeps);
    checkOrigin(req, actor.via === "key" ? "none" : actor.via, s.config);
    const limit = options.bodyLimit === "import" ? s.config.maxImportBytes : s.config.maxBodyBytes;
    const workspace = s.workspaceFor(actor);
    return fn({
      actor,
      workspace,
      services: s,
      json: (schema) => readJson(req, schema, limit),
      admit: (kind) => s.admission.enter(kind, actor.ownerId),
      admitRead: async (id) =>
        (await workspace.nodeSpan(id)) > s.config.heavyReadNodes
          ? s.admission.enter("heavy_reads", actor.ownerId)
          : () => undefined,
      track: () =>
        s.gate.track({ ownerId: actor.ownerId, credential: actor.credential ?? null }, req.signal),
      file: () => {
        checkJsonBody(req, "multipart");
        return readUploadedFile(req, s.config.maxAttachmentBytes);
      },
      ownedSession: async (params) => {
        const id = sessionIdParam((await params).id);
        await workspace.own(id);
        return id;
      },
    });
  });
}

/** Public routes (health, the OpenAPI document): only the Host is checked. */
export function publicRoute(req: Request, fn: (s: Services) => Promise<Response>) {
  return handle(async () => {
    const s = await services();
    checkHost(req, s.config);
    return fn(s);
  });
}
