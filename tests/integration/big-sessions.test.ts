import { describe, expect, it, vi } from "vitest";
import { LOCAL_ACTOR, accountActor } from "@/lib/auth/actor";
import { asNodeId, asSessionId, type NodeId } from "@/lib/engine/ids";
import { versionsUnder } from "@/lib/engine/branch-tip";
import type { LedgerNode } from "@/lib/engine/types";
import { firstLine, type WireNode } from "@/lib/engine/wire-node";
import { services } from "@/lib/server/services";
import { DATABASE_KINDS } from "./support/databases";
import { useApp, type Routes } from "./support/routes";
import { unpackLedger, type PackedLedger } from "@/lib/engine/packed-ledger";
import { NEAR_FIRST_FROM } from "@/lib/dispatcher/workspace";
import { bigLedger } from "../support/big-ledger";
import { expectSchema } from "./support/openapi-schema";

/**
 * Big sessions (issue 10, docs/big-sessions.md): the ledger a page at a time, in three
 * shapes, through the real route handlers on both databases.
 */

type Page = { nodes: WireNode[]; lastSeq: number; nextAfterSeq: number | null; total: number };

for (const { kind, enabled } of DATABASE_KINDS) {
  (enabled ? describe : describe.skip)(`big sessions [${kind}]`, () => {
    let routes: Routes;
    useApp(kind, { SPINDLE_AUTH: "off" }, (app) => ({ routes } = app));
    const call = (...args: Parameters<Routes["call"]>) => routes.call(...args);
    const get = async (url: string) => {
      const res = await call("GET", url);
      return { status: res.status, page: res.json as unknown as Page, json: res.json };
    };

    /** A session with two branches: HEAD on the edit, the first branch dead. */
    async function twoBranches() {
      const id = (await call("POST", "/api/sessions", { title: "Big" })).json["id"] as string;
      const first = await call("POST", `/api/sessions/${id}/turns`, {
        content: "First question\nwith a second line",
        stream: false,
      });
      const user = (first.json["user"] as { id: string }).id;
      // A long message whose label lies past the prefix the skeleton reads.
      await call("POST", `/api/sessions/${id}/turns`, {
        content: `${" ".repeat(3000)}\n  Deep label line  \n${"x".repeat(5000)}`,
        stream: false,
      });
      await call("POST", `/api/sessions/${id}/turns`, {
        mode: "edit",
        targetId: user,
        content: "Edited question",
        stream: false,
      });
      const full = (await get(`/api/sessions/${id}/nodes`)).page.nodes as LedgerNode[];
      return { id, full };
    }

    it("[R113] pages follow seq through the (sessionId, seq) index, in three shapes", async () => {
      const { id, full } = await twoBranches();
      expect(full.length).toBe(7);
      const lastSeq = Math.max(...full.map((n) => n.seq));

      // Whole pages, one after the other, give the whole ledger exactly once.
      const seen: WireNode[] = [];
      let after: number | null = 0;
      let pages = 0;
      while (after !== null) {
        const { status, page, json } = await get(
          `/api/sessions/${id}/nodes?afterSeq=${after}&limit=2&view=lean`,
        );
        expect(status).toBe(200);
        expectSchema("NodesPage", json);
        expect(page.lastSeq).toBe(lastSeq);
        expect(page.total).toBe(full.length);
        expect(page.nodes.length).toBeLessThanOrEqual(2);
        for (const n of page.nodes) {
          expect(n.seq).toBeGreaterThan(after);
          expect(n.partial).toBe("reads");
          expect(n.reads).toEqual([]);
        }
        seen.push(...page.nodes);
        after = page.nextAfterSeq;
        pages += 1;
      }
      expect(pages).toBe(3);
      expect(seen.map((n) => n.id)).toEqual(full.slice(1).map((n) => n.id));
      expect(seen.map((n) => n.content)).toEqual(full.slice(1).map((n) => n.content));

      // The default shape is full: reads as stored, no `partial`.
      const fullPage = await get(`/api/sessions/${id}/nodes?limit=3`);
      expect(fullPage.page.nodes).toEqual(full.slice(0, 3));
      expect(fullPage.page.nextAfterSeq).toBe(full[2]?.seq);
      expect(full.some((n) => n.reads.length > 0)).toBe(true);

      // Past the end: an empty page, not an error.
      const end = await get(`/api/sessions/${id}/nodes?afterSeq=${lastSeq}&view=skeleton`);
      expect(end.status).toBe(200);
      expect(end.page).toEqual({ nodes: [], lastSeq, nextAfterSeq: null, total: full.length });
      const far = await get(`/api/sessions/${id}/nodes?afterSeq=2147483647&limit=5000`);
      expect(far.page.nodes).toEqual([]);
    });

    it("[R122] every page answers the session's node count; a delete lowers it by what it removed", async () => {
      const { id, full } = await twoBranches();
      const before = await get(`/api/sessions/${id}/nodes?afterSeq=${full.at(-1)?.seq}&view=lean`);
      expect(before.page.total).toBe(full.length);
      const byIds = await get(`/api/sessions/${id}/nodes?ids=${full[1]?.id}`);
      expectSchema("NodesPage", byIds.json);
      expect(byIds.page.total).toBe(full.length);
      // The first branch is dead: delete it at its tip (the long message's reply).
      const tip = full[4] as LedgerNode;
      const res = await call("DELETE", `/api/sessions/${id}/branches/${tip.id}`);
      expect(res.status).toBe(200);
      const removed = res.json["removed"] as string[];
      expect(removed.length).toBeGreaterThan(0);
      const after = await get(`/api/sessions/${id}/nodes?view=skeleton`);
      expectSchema("NodesPage", after.json);
      expect(after.page.total).toBe(full.length - removed.length);
      expect(after.page.nodes).toHaveLength(after.page.total);
    });

    it("[R113] a skeleton page carries card labels; ROOT and summaries keep their text", async () => {
      const { id, full } = await twoBranches();
      const { page, json } = await get(`/api/sessions/${id}/nodes?view=skeleton`);
      expectSchema("NodesPage", json);
      expect(page.nodes.map((n) => n.id)).toEqual(full.map((n) => n.id));
      for (const [i, n] of page.nodes.entries()) {
        const source = full[i] as LedgerNode;
        expect(n.reads).toEqual([]);
        if (source.kind === "root") {
          expect(n).toMatchObject({ partial: "reads", content: source.content });
        } else {
          expect(n).toMatchObject({ partial: "skeleton", content: firstLine(source.content) });
        }
      }
      expect(page.nodes.map((n) => n.content)).toContain("Deep label line");
    });

    it("[R113] ids= answers those nodes full, in seq order; another session's are left out", async () => {
      const { id, full } = await twoBranches();
      const other = (await call("POST", "/api/sessions", {})).json["rootId"] as string;
      const wanted = [full[3], full[1]].map((n) => (n as LedgerNode).id);
      const { status, page } = await get(
        `/api/sessions/${id}/nodes?ids=${[...wanted, other, "not an id!", wanted[0]].join(",")}`,
      );
      expect(status).toBe(200);
      expect(page.nodes).toEqual([full[1], full[3]]);
      expect(page.nextAfterSeq).toBeNull();
    });

    it("[R113] a malformed query is 400 invalid_request; an unknown session 404", async () => {
      const { id } = await twoBranches();
      const many = Array.from({ length: 501 }, (_, i) => `n${i}`).join(",");
      for (const query of [
        "afterSeq=-1",
        "afterSeq=abc",
        "afterSeq=",
        "afterSeq=1e3",
        "afterSeq=0x10",
        "afterSeq=99999999999",
        "afterSeq=2147483648",
        "limit=0",
        "limit=5001",
        "limit=NaN",
        "view=bogus",
        `ids=${many}`,
        "ids=",
        "ids=a&afterSeq=3",
        "ids=a&limit=3",
        "ids=a&view=lean",
        "ids=a&form=columns",
        "form=rows",
      ]) {
        const res = await call("GET", `/api/sessions/${id}/nodes?${query}`);
        expect(res.status, query).toBe(400);
        expect(res.json, query).toMatchObject({ error: { code: "invalid_request" } });
      }
      for (const query of ["afterSeq=-1", "limit=0"]) {
        const res = await call("GET", `/api/sessions/${id}/graph?${query}`);
        expect(res.status, query).toBe(400);
      }
      const missing = await call("GET", `/api/sessions/01J0000000000000000000NONE/nodes?limit=1`);
      expect(missing.status).toBe(404);
    });

    it("[R113] another account's session is 404 through the Workspace, whatever the query", async () => {
      const { id } = await twoBranches();
      const s = await services();
      const mallory = s.workspaceFor(
        accountActor({ id: "mallory", name: "M", email: "m@example.com" }, "key"),
      );
      const sessionId = asSessionId(id);
      await expect(
        mallory.nodesPage(sessionId, { view: "lean", afterSeq: 0 }),
      ).rejects.toMatchObject({
        code: "session_not_found",
      });
      await expect(mallory.skeleton(sessionId)).rejects.toMatchObject({
        code: "session_not_found",
      });
      await expect(mallory.graph(sessionId, { limit: 1 })).rejects.toMatchObject({
        code: "session_not_found",
      });
    });

    it("[R113] a request asks who owns its session once, and a deleted session stays gone", async () => {
      const { id } = await twoBranches();
      const s = await services();
      const ownerOf = vi.spyOn(s.store, "ownerOf");
      try {
        // The route's id, the heavy-read probe and the graph itself: one question.
        const res = await call("GET", `/api/sessions/${id}/graph?limit=1`);
        expect(res.status).toBe(200);
        expect(ownerOf).toHaveBeenCalledTimes(1);

        ownerOf.mockClear();
        const workspace = s.workspaceFor(LOCAL_ACTOR);
        const sessionId = asSessionId(id);
        await workspace.own(sessionId);
        await workspace.nodeSpan(sessionId);
        await workspace.skeleton(sessionId);
        expect(ownerOf).toHaveBeenCalledTimes(1);

        // Removed by this workspace: asked again, and not found.
        await workspace.remove(sessionId);
        await expect(workspace.session(sessionId)).rejects.toMatchObject({
          code: "session_not_found",
        });
        expect(ownerOf).toHaveBeenCalledTimes(2);
      } finally {
        ownerOf.mockRestore();
      }
    });

    it("[R113] the graph pages its rows by seq like the nodes", async () => {
      const { id, full } = await twoBranches();
      const whole = (await call("GET", `/api/sessions/${id}/graph`)).json;
      expectSchema("Graph", whole);
      const res = await call("GET", `/api/sessions/${id}/graph?afterSeq=${full[1]?.seq}&limit=2`);
      expectSchema("Graph", res.json);
      const rows = res.json["nodes"] as { id: string }[];
      expect(rows.map((r) => r.id)).toEqual([full[2], full[3]].map((n) => n?.id));
      expect(res.json["nextAfterSeq"]).toBe(full[3]?.seq);
      expect(res.json["lastSeq"]).toBe(full.at(-1)?.seq);
      expect(res.json["headId"]).toBe(whole["headId"]);
    });

    it("[R114] the skeleton ledger: HEAD's spine, ROOT and the active summary whole, the rest labels", async () => {
      const { id, full } = await twoBranches();
      const s = await services();
      const workspace = s.workspaceFor(LOCAL_ACTOR);
      const session = await workspace.session(asSessionId(id));
      const spine = new Set(
        ((await call("GET", `/api/sessions/${id}/context`)).json["ids"] as string[]).concat(
          session.headId ?? [],
        ),
      );
      const skeleton = await workspace.skeleton(asSessionId(id));
      expect(skeleton.map((n) => n.id)).toEqual(full.map((n) => n.id));
      let labels = 0;
      for (const [i, n] of skeleton.entries()) {
        const source = full[i] as LedgerNode;
        expect(n.reads).toEqual([]);
        if (spine.has(n.id)) {
          expect(n).toEqual({ ...source, reads: [], partial: "reads" });
        } else {
          labels += 1;
          expect(n).toEqual({
            ...source,
            content: firstLine(source.content),
            reads: [],
            partial: "skeleton",
          });
        }
      }
      // The dead branch: its user turn, its reply, the long turn and its reply.
      expect(labels).toBe(4);
      expect(skeleton.map((n) => n.content)).toContain("Deep label line");
    });

    it("[R294] a big session's page opens near-first: HEAD's spine and ROOT, other versions counted", async () => {
      const { id, full } = await twoBranches();
      const workspace = (await services()).workspaceFor(LOCAL_ACTOR);
      const sessionId = asSessionId(id);
      const whole = await workspace.skeleton(sessionId);
      const near = await workspace.skeleton(sessionId, { near: true });
      // ROOT, the edit and its reply (HEAD): the first question, the edit's other version,
      // is counted, not carried; what hangs below it is the rest.
      const [root, firstUser, , , , edited, headReply] = full;
      expect(near.map((n) => n.id)).toEqual([root, edited, headReply].map((n) => n?.id));
      // Each near node exactly as the whole first load carries it.
      const byId = new Map(whole.map((n) => [n.id, n]));
      for (const n of near) expect(n).toEqual(byId.get(n.id));
      const { store } = await services();
      const head = asNodeId(headReply?.id ?? "");
      const lastSeq = Math.max(...full.map((n) => n.seq));
      expect(await store.versionsLeftOut(sessionId, head, [], lastSeq)).toEqual([
        [root?.id, edited?.seq, 1, 0],
      ]);
      // A version the page names anyway is not counted again.
      expect(
        await store.versionsLeftOut(sessionId, head, [asNodeId(firstUser?.id ?? "")], lastSeq),
      ).toEqual([]);
      // Nor one written after the page's lastSeq: the catch-up brings it, held, not counted.
      expect(await store.versionsLeftOut(sessionId, head, [], (firstUser?.seq ?? 0) - 1)).toEqual(
        [],
      );

      // A session within the limit arrives whole, with its count and highest seq.
      const first = await workspace.firstLedger(await workspace.session(sessionId));
      expect(first.near).toBe(false);
      expect(first.nodes).toEqual(whole);
      expect(first.leftOut).toEqual([]);
      expect(first.total).toBe(full.length);
      expect(first.lastSeq).toBe(Math.max(...full.map((n) => n.seq)));
    });

    it("[R294] above 5,000 nodes the page carries HEAD's spine, HEAD's replies and what it names, and counts each spine message's other versions", async () => {
      const file = bigLedger({ total: NEAR_FIRST_FROM + 100, title: "Near" });
      const parentOf = new Map(file.nodes.map((n) => [n.id, n.predecessorId]));
      const spineIds = new Set<string>();
      for (
        let id: string | null = file.session.headId;
        id !== null;
        id = parentOf.get(id) ?? null
      ) {
        spineIds.add(id);
      }
      const hasChildren = new Set(file.nodes.map((n) => n.predecessorId));
      // Among the spine's siblings, a notice and a spawned branch: attachments, never
      // versions ([R290]), so never counted.
      const leaves = file.nodes.filter(
        (n) =>
          !spineIds.has(n.id) &&
          !hasChildren.has(n.id) &&
          n.predecessorId !== null &&
          spineIds.has(n.predecessorId),
      );
      const [notice, spawned] = leaves;
      if (!notice || !spawned)
        throw new Error("the big ledger has no two dead leaves on the spine");
      const nodes = file.nodes.map((n) =>
        n.id === notice.id
          ? { ...n, kind: "notice" as const }
          : n.id === spawned.id
            ? { ...n, callerId: n.predecessorId }
            : n,
      );
      const imported = await call("POST", "/api/import", JSON.stringify({ ...file, nodes }));
      expect(imported.status).toBe(201);
      const sessionId = asSessionId(imported.json["id"] as string);
      const workspace = (await services()).workspaceFor(LOCAL_ACTOR);
      const session = await workspace.session(sessionId);
      const full = (await get(`/api/sessions/${sessionId}/nodes?view=lean`)).page.nodes;
      const byId = new Map<string, WireNode>(full.map((n) => [n.id, n]));
      const spine = new Set<string>();
      for (let n = byId.get(session.headId ?? ""); n; n = byId.get(n.predecessorId ?? "")) {
        spine.add(n.id);
      }
      // A node far from HEAD's spine (a fork's second turn), named by the page.
      const far = full.find((n) => {
        const pred = n.predecessorId === null ? undefined : byId.get(n.predecessorId);
        return pred !== undefined && !spine.has(pred.id) && !spine.has(n.id);
      });
      if (!far) throw new Error("the big ledger has no fork two turns deep");
      const first = await workspace.firstLedger(session, [far.id]);
      expect(first.near).toBe(true);
      expect(first.total).toBe(full.length);
      const want = full.filter(
        (n) => spine.has(n.id) || n.predecessorId === session.headId || n.id === far.id,
      );
      expect(first.nodes.map((n) => n.id)).toEqual(want.map((n) => n.id));
      expect(first.nodes.length).toBeLessThan(spine.size + 10);
      // Spine nodes whole (lean), the others as their card labels.
      for (const n of first.nodes) {
        expect(n.partial).toBe(spine.has(n.id) ? "reads" : "skeleton");
      }
      // Each spine message's versions by the engine's rule, minus the spine's own and `far`:
      // the page's `‹ i/n ›` and the graph's tags count them as if held.
      const childrenOf = (id: NodeId) =>
        full.filter((n) => n.predecessorId === id) as unknown as LedgerNode[];
      const expected: (readonly [string, number, number, number])[] = [];
      for (const id of spine) {
        const node = byId.get(id);
        const parent = node?.predecessorId ? byId.get(node.predecessorId) : undefined;
        if (!node || !parent) continue;
        const others = versionsUnder(parent as unknown as LedgerNode, childrenOf).filter(
          (v) => v.id !== node.id && v.id !== far.id,
        );
        const before = others.filter((v) => v.seq < node.seq).length;
        if (others.length > 0) expected.push([parent.id, node.seq, before, others.length - before]);
      }
      const byParent = (a: readonly [string, ...unknown[]], b: readonly [string, ...unknown[]]) =>
        a[0].localeCompare(b[0]);
      expect([...first.leftOut].sort(byParent)).toEqual(expected.sort(byParent));
      expect(expected.length).toBeGreaterThan(10);
      // The notice and the spawned branch are left out, and not counted as versions.
      const counted = first.leftOut.reduce((sum, [, , b, a]) => sum + b + a, 0);
      const siblings = full.filter(
        (n) =>
          n.predecessorId !== null &&
          spine.has(n.predecessorId) &&
          !spine.has(n.id) &&
          n.predecessorId !== session.headId &&
          n.id !== far.id,
      ).length;
      expect(counted).toBe(siblings - 2);
    });

    it("[R294] the rest comes in columns: exactly the nodes of the list form", async () => {
      const { id, full } = await twoBranches();
      const list: WireNode[] = [];
      const columns: WireNode[] = [];
      for (const [form, into] of [
        ["list", list],
        ["columns", columns],
      ] as const) {
        let after: number | null = -1;
        while (after !== null) {
          const { status, json } = await get(
            `/api/sessions/${id}/nodes?${after >= 0 ? `afterSeq=${after}&` : ""}limit=3&view=skeleton&form=${form}`,
          );
          expect(status).toBe(200);
          expectSchema(form === "list" ? "NodesPage" : "PackedNodesPage", json);
          const page = json as unknown as Page & { ledger: PackedLedger };
          into.push(...(form === "list" ? page.nodes : unpackLedger(page.ledger)));
          expect(page.total).toBe(full.length);
          after = page.nextAfterSeq;
        }
      }
      expect(columns).toEqual(list);
      expect(columns.map((n) => n.id)).toEqual(full.map((n) => n.id));
    });
  });
}
