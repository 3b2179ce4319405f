import { describe, expect, it } from "vitest";
import { checkoutTarget } from "@/lib/engine/checkout-target";
import { asSessionId } from "@/lib/engine/ids";
import { planTurn, type TurnRequest } from "@/lib/engine/plan-turn";
import { rewindTarget } from "@/lib/engine/rewind-target";
import { shouldAdvanceHead } from "@/lib/engine/should-advance-head";
import { DEFAULT_MAX_CONTENT_CHARS, validateContent } from "@/lib/engine/validate-content";
import { codeOf, id, ledger, SESSION } from "./helpers";

const H = id("a2");

function conversation() {
  const l = ledger().chain("R", "u1 a1 u2 a2").chain("a1", "u2b a2b");
  l.summary("S", ["u1", "a1"]);
  l.add("n1", "notice", "a2");
  return l;
}

function request(over: Partial<TurnRequest>): TurnRequest {
  const l = conversation();
  return {
    sessionId: SESSION,
    mode: "send",
    headId: H,
    advanceHead: true,
    turnInProgress: false,
    getNode: l.index().get,
    ...over,
  };
}

describe("HEAD: the append rule (compaction.md §5)", () => {
  it("[R19] an append advances HEAD only when it extends the chain and the turn allows it", () => {
    const extend = { kind: "user" as const, predecessorId: H };
    expect(shouldAdvanceHead({ currentHeadId: H, node: extend, advanceHead: true })).toBe(true);
    const aside = { kind: "assistant" as const, predecessorId: id("u2") };
    expect(shouldAdvanceHead({ currentHeadId: H, node: aside, advanceHead: true })).toBe(false);
    for (const kind of ["assistant", "tool"] as const) {
      expect(
        shouldAdvanceHead({
          currentHeadId: H,
          node: { kind, predecessorId: H },
          advanceHead: true,
        }),
      ).toBe(true);
    }
  });

  it("[R20] a spawned turn's writes never move HEAD", () => {
    for (const kind of ["user", "assistant", "tool"] as const) {
      expect(
        shouldAdvanceHead({
          currentHeadId: H,
          node: { kind, predecessorId: H },
          advanceHead: false,
        }),
      ).toBe(false);
    }
    const spawn = planTurn(request({ parentId: id("a1"), advanceHead: false }));
    expect(spawn.opensFork).toBe(true);
    expect(spawn.forkMovesHead).toBe(false);
    // The sub-agent's own HEAD-neutral turn is admitted while its caller's turn streams.
    expect(codeOf(() => planTurn(request({ advanceHead: false, turnInProgress: true })))).toBe(
      undefined,
    );
  });

  it("[R21] summaries and notices never move HEAD; a ROOT only becomes HEAD of a headless session", () => {
    for (const kind of ["summary", "notice"] as const) {
      expect(
        shouldAdvanceHead({
          currentHeadId: H,
          node: { kind, predecessorId: H },
          advanceHead: true,
        }),
      ).toBe(false);
    }
    const root = { kind: "root" as const, predecessorId: null };
    expect(shouldAdvanceHead({ currentHeadId: null, node: root, advanceHead: true })).toBe(true);
    expect(shouldAdvanceHead({ currentHeadId: H, node: root, advanceHead: true })).toBe(false);
    const orphan = { kind: "user" as const, predecessorId: null };
    expect(shouldAdvanceHead({ currentHeadId: null, node: orphan, advanceHead: true })).toBe(false);
  });
});

describe("HEAD: turns (product.md §3)", () => {
  it("[R22] a send at HEAD extends the chain; a send under parentId is a fork HEAD follows", () => {
    expect(planTurn(request({}))).toEqual({
      predecessorId: H,
      writesUserNode: true,
      opensFork: false,
      forkMovesHead: false,
    });
    expect(planTurn(request({ parentId: H })).opensFork).toBe(false);
    expect(planTurn(request({ parentId: id("a1") }))).toEqual({
      predecessorId: id("a1"),
      writesUserNode: true,
      opensFork: true,
      forkMovesHead: true,
    });
  });

  it("[R23] retry writes a new reply beside the target; edit a new user message beside it", () => {
    expect(planTurn(request({ mode: "retry", targetId: id("a2") }))).toEqual({
      predecessorId: id("u2"),
      writesUserNode: false,
      opensFork: true,
      forkMovesHead: true,
    });
    expect(planTurn(request({ mode: "edit", targetId: id("u2") }))).toEqual({
      predecessorId: id("a1"),
      writesUserNode: true,
      opensFork: true,
      forkMovesHead: true,
    });
    // After a rewind to u2, a retry of a2 hangs off HEAD: a plain extension.
    expect(
      planTurn(request({ mode: "retry", targetId: id("a2"), headId: id("u2") })).opensFork,
    ).toBe(false);
  });

  it("[R180] a retry of a user message writes a new reply under it, moving HEAD there", () => {
    // HEAD rests on the user message (checked out): the reply extends the chain.
    expect(planTurn(request({ mode: "retry", targetId: id("u2"), headId: id("u2") }))).toEqual({
      predecessorId: id("u2"),
      writesUserNode: false,
      opensFork: false,
      forkMovesHead: false,
    });
    // From elsewhere it is a fork under that message, and HEAD follows it.
    expect(planTurn(request({ mode: "retry", targetId: id("u2") }))).toEqual({
      predecessorId: id("u2"),
      writesUserNode: false,
      opensFork: true,
      forkMovesHead: true,
    });
  });

  it("[R23] wrong targets are refused before anything is written", () => {
    expect(codeOf(() => planTurn(request({ mode: "retry", targetId: id("S") })))).toBe(
      "invalid_target",
    );
    expect(codeOf(() => planTurn(request({ mode: "edit", targetId: id("a2") })))).toBe(
      "invalid_target",
    );
    expect(codeOf(() => planTurn(request({ mode: "retry" })))).toBe("invalid_request");
    expect(codeOf(() => planTurn(request({ mode: "retry", targetId: id("zz") })))).toBe(
      "node_not_found",
    );
    expect(codeOf(() => planTurn(request({ mode: "edit", targetId: id("u2"), parentId: H })))).toBe(
      "invalid_request",
    );
    expect(codeOf(() => planTurn(request({ targetId: id("u2") })))).toBe("invalid_request");
    expect(codeOf(() => planTurn(request({ parentId: id("zz") })))).toBe("node_not_found");
    expect(codeOf(() => planTurn(request({ headId: null })))).toBe("invalid_request");
  });

  it("[R5] nothing may be appended under a summary or a notice", () => {
    expect(codeOf(() => planTurn(request({ parentId: id("S") })))).toBe("invalid_target");
    expect(codeOf(() => planTurn(request({ parentId: id("n1") })))).toBe("invalid_target");
  });

  it("[R24] a head-advancing turn while another streams is turn_in_progress", () => {
    expect(codeOf(() => planTurn(request({ turnInProgress: true })))).toBe("turn_in_progress");
    expect(codeOf(() => planTurn(request({ turnInProgress: true, parentId: id("a1") })))).toBe(
      "turn_in_progress",
    );
    const l = conversation();
    l.add("a3", "assistant", "a2", { status: "streaming" });
    expect(
      codeOf(() => planTurn({ ...request({}), headId: id("a3"), getNode: l.index().get })),
    ).toBe("turn_in_progress");
  });
});

describe("HEAD: checkout and rewind", () => {
  it("[R25] rewind moves only to a node of HEAD's spine", () => {
    const l = conversation();
    const input = { sessionId: SESSION, headId: H, getNode: l.index().get };
    expect(rewindTarget({ ...input, targetId: id("u1") }).id).toBe("u1");
    expect(rewindTarget({ ...input, targetId: H }).id).toBe("a2");
    expect(codeOf(() => rewindTarget({ ...input, targetId: id("u2b") }))).toBe("node_not_on_spine");
    expect(codeOf(() => rewindTarget({ ...input, targetId: id("S") }))).toBe("node_not_on_spine");
    expect(codeOf(() => rewindTarget({ ...input, targetId: id("zz") }))).toBe("node_not_found");
    expect(
      codeOf(() => rewindTarget({ ...input, sessionId: asSessionId("s2"), targetId: id("u1") })),
    ).toBe("node_not_found");
  });

  it("[R26] checkout takes any conversation node of the session, whatever its status", () => {
    const l = conversation();
    l.add("a3", "assistant", "a2", { status: "error" });
    for (const target of ["R", "u2b", "a2b", "u1", "a3"]) {
      expect(checkoutTarget(SESSION, id(target), l.index().get).id).toBe(target);
    }
    expect(codeOf(() => checkoutTarget(SESSION, id("zz"), l.index().get))).toBe("node_not_found");
    expect(codeOf(() => checkoutTarget(asSessionId("s2"), id("u1"), l.index().get))).toBe(
      "node_not_found",
    );
  });

  it("[R5] [R26] a summary or a notice cannot become HEAD", () => {
    const l = conversation();
    expect(codeOf(() => checkoutTarget(SESSION, id("S"), l.index().get))).toBe(
      "node_not_checkoutable",
    );
    expect(codeOf(() => checkoutTarget(SESSION, id("n1"), l.index().get))).toBe(
      "node_not_checkoutable",
    );
  });
});

describe("content", () => {
  it("[R31] empty content is refused, too-long content is refused, the rest passes unchanged", () => {
    expect(codeOf(() => validateContent(""))).toBe("empty_content");
    expect(codeOf(() => validateContent(" \n\t "))).toBe("empty_content");
    expect(validateContent("  hi  ")).toBe("  hi  ");
    expect(codeOf(() => validateContent("x".repeat(DEFAULT_MAX_CONTENT_CHARS + 1)))).toBe(
      "content_too_large",
    );
    expect(validateContent("x".repeat(DEFAULT_MAX_CONTENT_CHARS)).length).toBe(200_000);
    expect(codeOf(() => validateContent("abcd", 3))).toBe("content_too_large");
    // Characters are code points: four emoji are four characters, not eight.
    expect(validateContent("😀😀😀😀", 4)).toBe("😀😀😀😀");
    expect(codeOf(() => validateContent("😀😀😀😀😀", 4))).toBe("content_too_large");
  });
});
