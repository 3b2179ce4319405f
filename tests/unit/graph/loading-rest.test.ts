import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { GraphToolbar } from "@/components/graph/graph-toolbar";
import { SessionStoreProvider } from "@/components/session/session-context";
import type { LedgerRest } from "@/components/session/session-store";
import { TEST_MODEL } from "../../support/model-info";
import { wireNode } from "../../support/wire-node";

const ROOT = wireNode("R", null, 0, "root", { content: "system" });

function toolbar(rest: LedgerRest | null): string {
  const noop = () => undefined;
  return renderToString(
    createElement(SessionStoreProvider, {
      session: {
        id: ROOT.sessionId,
        title: "t",
        headId: ROOT.id,
        rootId: ROOT.id,
        meta: {},
        createdAt: ROOT.createdAt,
        updatedAt: ROOT.createdAt,
      },
      nodes: [ROOT],
      rest,
      model: TEST_MODEL,
      children: createElement(GraphToolbar, {
        relics: 0,
        onFit: noop,
        minimap: true,
        onToggleMinimap: noop,
        onShowKeys: noop,
      }),
    }),
  );
}

describe("[R294] the graph says when the rest of a big session is on its way", () => {
  it("[R294] a near-first page's toolbar says older branches are loading; a whole one says nothing", () => {
    const near = toolbar({ total: 9_000, lastSeq: 8_999 });
    expect(near).toContain('role="status"');
    expect(near).toContain("Loading older branches…");
    expect(toolbar(null)).not.toContain("Loading older branches");
  });
});
