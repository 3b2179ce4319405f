import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import * as graphModule from "@/lib/engine/build-graph";
import { Transcript } from "@/components/chat/transcript";
import type { SessionActions } from "@/components/chat/use-session-actions";
import { SessionStoreProvider } from "@/components/session/session-context";
import type { WireNode } from "@/lib/engine/wire-node";
import { asNodeId, asSessionId, tokens } from "@/lib/engine/ids";
import type { SessionRecord } from "@/lib/engine/types";
import { TEST_MODEL } from "../../support/model-info";

vi.mock("@/lib/engine/build-graph", async (original) => {
  const real = await original<typeof import("@/lib/engine/build-graph")>();
  return { ...real, buildGraph: vi.fn(real.buildGraph) };
});

const S = asSessionId("S1");

function wire(i: number, extra: Partial<WireNode> = {}): WireNode {
  return {
    id: asNodeId(i === 0 ? "R" : `n${i}`),
    sessionId: S,
    predecessorId: i === 0 ? null : asNodeId(i === 1 ? "R" : `n${i - 1}`),
    seq: i,
    kind: i === 0 ? "root" : i % 2 === 1 ? "user" : "assistant",
    content: i === 0 ? "system" : `message number ${i}`,
    status: "complete",
    callerId: null,
    metadata: {},
    reads: [],
    tokenCount: tokens(1),
    createdAt: "2026-12-01T00:00:00.000Z",
    ...extra,
  };
}

function render(nodes: readonly WireNode[]): string {
  const session: SessionRecord = {
    id: S,
    title: "t",
    headId: nodes.at(-1)?.id ?? null,
    rootId: asNodeId("R"),
    meta: {},
    createdAt: "2026-12-01T00:00:00.000Z",
    updatedAt: "2026-12-01T00:00:00.000Z",
  };
  // The transcript only calls actions on clicks; the server render makes none.
  const actions = {} as SessionActions;
  return renderToString(
    createElement(SessionStoreProvider, {
      session,
      nodes,
      model: TEST_MODEL,
      children: createElement(Transcript, { actions }),
    }),
  );
}

const rowIds = (html: string) =>
  [...html.matchAll(/data-node-id="([^"]+)"/g)].map((m) => m[1] ?? "");

describe("[R125] the transcript mounts what is on screen, and the server renders the tail", () => {
  it("[R125] a 2,000-turn branch renders a bounded window at its end", () => {
    const nodes = Array.from({ length: 4001 }, (_, i) => wire(i));
    const html = render(nodes);
    const ids = rowIds(html);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.length).toBeLessThan(40);
    expect(ids).toContain("n4000");
    expect(ids).not.toContain("n1");
    expect(html).toContain('aria-label="Transcript"');
  });

  it("[R125] a short branch renders every turn (nothing for find-in-page to miss)", () => {
    const nodes = Array.from({ length: 21 }, (_, i) => wire(i));
    const ids = rowIds(render(nodes));
    expect(ids).toHaveLength(20);
  });
});

describe("[R126] a skeleton never shows as the message", () => {
  it("[R126] its label shows as loading, with no body, copy or edit", () => {
    const nodes = [
      wire(0),
      wire(1, { content: "The first line of a long que", partial: "skeleton" }),
      wire(2),
    ];
    const html = render(nodes);
    const row = html.slice(html.indexOf('data-node-id="n1"'), html.indexOf('data-node-id="n2"'));
    expect(row).toContain("msg-loading");
    expect(row).toContain('aria-busy="true"');
    expect(row).toContain("loading…");
    expect(row).not.toContain("msg-body");
    expect(row).not.toContain(">Copy<");
    expect(row).not.toContain(">Edit<");
  });
});

describe("[R124] the transcript does not wait for the graph", () => {
  it("[R124] versions come from the children index: no graph build, same `< 2/2 >`", () => {
    const build = vi.mocked(graphModule.buildGraph);
    build.mockClear();
    // n1 → n2, and a second version of n2 (seq 3) that HEAD is on.
    const nodes = [
      wire(0),
      wire(1),
      wire(2),
      wire(3, { id: asNodeId("v2"), predecessorId: asNodeId("n1"), kind: "assistant" }),
    ];
    const html = render(nodes);
    expect(html).toMatch(/siblings-count[^>]*>2<!-- -->\/<!-- -->2</);
    // HEAD's tip with a fork above it can be deleted.
    expect(html).toContain("Delete branch");
    expect(build).not.toHaveBeenCalled();
  });
});
