import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { asNodeId } from "@/lib/engine/ids";
import { isEngineError } from "@/lib/engine/errors";
import {
  chatGptTitle,
  chatGptToLedger,
  MAX_CONVERSATION_CHARS,
} from "@/lib/portability/chatgpt-import";
import { parseLedgerNodes, planImport, type LedgerShell } from "@/lib/portability/ledger-file";
import { DEFAULT_SYSTEM_PROMPT } from "@/lib/engine/system-prompt";
import { DEFAULT_PDF_LIMITS } from "@/lib/files/limits";
import { createPdfReader } from "@/lib/files/pdf-reader";

/**
 * The ChatGPT importer on its own: hand-built exports in the public shape of
 * `conversations.json` (tests/fixtures/chatgpt), translated into ledger files that the
 * ordinary ledger import then accepts.
 */

type Raw = Record<string, unknown>;
const fixture = (name: string) =>
  JSON.parse(readFileSync(`tests/fixtures/chatgpt/${name}.json`, "utf8")) as Raw[];
const [lisbon, python] = fixture("conversations") as [Raw, Raw];
const broken = fixture("broken");

const NOW = new Date("2026-01-02T03:04:05.000Z");
const OPTIONS = { maxNodes: 100_000, now: NOW };
const toLedger = (raw: unknown, options = OPTIONS) => chatGptToLedger(raw, options);

type ShellNode = {
  id: string;
  predecessorId: string | null;
  seq: number;
  kind: string;
  content: string;
  status: string;
  metadata: Record<string, unknown>;
  createdAt: string;
};
const nodesOf = (shell: LedgerShell) => shell.nodes as ShellNode[];
const byText = (shell: LedgerShell, text: string) => {
  const found = nodesOf(shell).filter((n) => n.content.includes(text));
  expect(found, text).toHaveLength(1);
  return found[0] as ShellNode;
};
const childrenOf = (shell: LedgerShell, id: string) =>
  nodesOf(shell).filter((n) => n.predecessorId === id);

/** The error a translation throws: its catalogue code and message. */
function failure(raw: unknown, options = OPTIONS) {
  try {
    toLedger(raw, options);
  } catch (e) {
    if (isEngineError(e)) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error("the conversation was accepted");
}

/** A one-exchange conversation to bend into the shapes under test. */
function conversation(extra: Record<string, Raw> = {}): Raw {
  const msg = (role: string, text: string, t: number) => ({
    author: { role },
    create_time: t,
    content: { content_type: "text", parts: [text] },
    metadata: {},
  });
  return {
    title: "Small",
    create_time: 1_700_000_000,
    current_node: "a",
    mapping: {
      root: { id: "root", message: null, parent: null, children: ["u"] },
      u: { id: "u", message: msg("user", "Hello", 1_700_000_001), parent: "root", children: ["a"] },
      a: { id: "a", message: msg("assistant", "Hi", 1_700_000_002), parent: "u", children: [] },
      ...extra,
    },
  };
}

describe("[R94] a ChatGPT conversation as a Spindle ledger", () => {
  it("[R94] keeps every branch: an edit is a sibling user node, a regeneration a sibling reply", () => {
    const shell = toLedger(lisbon);
    const question = byText(shell, "Plan a weekend in Lisbon.");
    const replies = childrenOf(shell, question.id);
    expect(replies.map((n) => n.kind)).toEqual(["assistant", "assistant"]);
    expect(replies.map((n) => n.content)).toEqual([
      "Day 1: Alfama and the castle. Day 2: Belém.",
      "Saturday: Baixa and Chiado. Sunday: Sintra.",
    ]);
    const edits = childrenOf(shell, byText(shell, "Saturday").id);
    expect(edits.map((n) => n.kind)).toEqual(["user", "user"]);
    expect(childrenOf(shell, byText(shell, "What should I eat?").id)).toHaveLength(1);
    // Every message but the empty root and the hidden system message, plus ROOT.
    expect(shell.nodes).toHaveLength(8);
  });

  it("[R94] HEAD is current_node, here on the older branch", () => {
    const shell = toLedger(lisbon);
    expect(shell.session.headId).toBe(byText(shell, "pastéis de nata").id);
    expect(shell.session.title).toBe("Weekend in Lisbon");
  });

  it("[R94] the empty root and a hidden empty system message become ROOT with the default prompt", () => {
    const shell = toLedger(lisbon);
    const root = nodesOf(shell).filter((n) => n.kind === "root");
    expect(root).toHaveLength(1);
    expect(root[0]?.content).toBe(DEFAULT_SYSTEM_PROMPT);
    expect(root[0]?.predecessorId).toBeNull();
    expect(byText(shell, "Plan a weekend").predecessorId).toBe(root[0]?.id);
  });

  it("[R94] a non-empty system message is ROOT's content", () => {
    const root = nodesOf(toLedger(python)).find((n) => n.kind === "root");
    expect(root?.content).toBe("You are a careful maths tutor.");
  });

  it("[R94] a hidden system message that holds a prompt is ROOT's content too", () => {
    const c = conversation({
      sys: {
        message: {
          author: { role: "system" },
          content: { content_type: "text", parts: ["Answer in French."] },
          metadata: { is_visually_hidden_from_conversation: true },
        },
        parent: "root",
      },
    });
    const mapping = c["mapping"] as Record<string, Raw>;
    (mapping["u"] as Raw)["parent"] = "sys";
    const nodes = nodesOf(toLedger(c));
    expect(nodes[0]).toMatchObject({ kind: "root", content: "Answer in French." });
    expect(nodes[1]).toMatchObject({ kind: "user", predecessorId: nodes[0]?.id });
  });

  it("[R94] where a branch starts inside a tool run, its messages stay separate replies", () => {
    const tool = (text: string, t: number) => ({
      message: {
        author: { role: "tool", name: "browser" },
        create_time: t,
        content: { content_type: "text", parts: [text] },
      },
      parent: "a",
    });
    const shell = toLedger(
      conversation({ t1: tool("first result", 1_700_000_003), t2: tool("second", 1_700_000_004) }),
    );
    const reply = byText(shell, "Hi");
    expect(reply.content).toBe("Hi");
    expect(childrenOf(shell, reply.id).map((n) => [n.kind, n.content])).toEqual([
      ["assistant", "[output of browser]\nfirst result"],
      ["assistant", "[output of browser]\nsecond"],
    ]);
  });

  it("[R94] an image part becomes a bracketed placeholder beside the text kept", () => {
    const edit = byText(toLedger(lisbon), "on a budget");
    expect(edit.kind).toBe("user");
    expect(edit.content).toBe(
      "[image]\n\nWhat should I eat on a budget? This is the menu I found.",
    );
  });

  it("[R94] a tool run without a branch inside is one reply; reasoning is skipped", () => {
    const shell = toLedger(python);
    const reply = byText(shell, "The sum is 5.");
    expect(reply.kind).toBe("assistant");
    expect(reply.content).toBe(
      [
        "[call to python]\n```python\nprint(2 + 3)\n```",
        "[output of python]\n```\n5\n```",
        "The sum is 5.",
      ].join("\n\n"),
    );
    expect(reply.metadata).toMatchObject({
      model: "gpt-4o",
      chatgpt_ids: ["b-call", "b-out", "b-a1"],
    });
    expect(byText(shell, "Add 2 and 3").id).toBe(reply.predecessorId);
    expect(nodesOf(shell).some((n) => n.content.includes("Use python"))).toBe(false);
    expect(nodesOf(shell).map((n) => n.kind)).toEqual([
      "root",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
  });

  it("[R94] HEAD on a hidden message walks up to the nearest kept one", () => {
    const shell = toLedger(python);
    const quote = byText(shell, "Two plus three is five.");
    expect(quote.content).toBe("> Two plus three is five.\n\n(Sums — https://example.org/sums)");
    expect(shell.session.headId).toBe(quote.id);
    expect(nodesOf(shell).some((n) => n.content.includes("Likes Python"))).toBe(false);
  });

  it("[R94] a hidden message is skipped and its children hang off the nearest kept ancestor", () => {
    const c = conversation({
      h: {
        message: {
          author: { role: "user" },
          content: { content_type: "text", parts: ["secret"] },
          metadata: { is_visually_hidden_from_conversation: true },
        },
        parent: "a",
      },
      late: {
        message: { author: { role: "user" }, content: { content_type: "text", parts: ["Next"] } },
        parent: "h",
      },
      sys: {
        message: { author: { role: "system" }, content: { content_type: "text", parts: ["mid"] } },
        parent: "late",
      },
    });
    c["current_node"] = "sys";
    const shell = toLedger(c);
    const next = byText(shell, "Next");
    expect(next.predecessorId).toBe(byText(shell, "Hi").id);
    expect(nodesOf(shell).some((n) => n.content.includes("secret"))).toBe(false);
    // A system message below the conversation's start has no Spindle kind: it is skipped.
    expect(nodesOf(shell).some((n) => n.content === "mid")).toBe(false);
    expect(shell.session.headId).toBe(next.id);
  });

  it("[R94] without a usable current_node, HEAD is the newest node", () => {
    const c = conversation();
    c["current_node"] = "nowhere";
    const shell = toLedger(c);
    expect(shell.session.headId).toBe(byText(shell, "Hi").id);
  });

  it("[R94] seq follows time with every predecessor first; createdAt comes from create_time", () => {
    for (const raw of [lisbon, python]) {
      const nodes = nodesOf(toLedger(raw));
      const seqOf = new Map(nodes.map((n) => [n.id, n.seq]));
      expect(nodes.map((n) => n.seq)).toEqual(nodes.map((_, i) => i));
      for (const n of nodes) {
        if (n.predecessorId !== null) expect(seqOf.get(n.predecessorId)).toBeLessThan(n.seq);
      }
      const times = nodes.slice(1).map((n) => Date.parse(n.createdAt));
      expect(times).toEqual([...times].sort((a, b) => a - b));
    }
    expect(byText(toLedger(lisbon), "Plan a weekend").createdAt).toBe(
      new Date(1_717_000_001_000).toISOString(),
    );
  });

  it("[R94] the ledger goes through the validated import path unchanged in shape", async () => {
    let n = 0;
    const limits = {
      maxNodes: 100_000,
      count: (t: string) => t.length,
      pdf: { read: createPdfReader(DEFAULT_PDF_LIMITS), maxTextChars: 1_000_000 },
    };
    for (const raw of [lisbon, python]) {
      const shell = toLedger(raw);
      const file = await parseLedgerNodes(shell, limits);
      const plan = await planImport(
        file,
        () => asNodeId(`N${String(n++).padStart(8, "0")}`),
        limits,
      );
      expect(plan.nodes).toHaveLength(shell.nodes.length);
      const head = plan.nodes.find((x) => x.id === plan.headId);
      expect(head?.content).toBe(
        nodesOf(shell).find((x) => x.id === shell.session.headId)?.content,
      );
    }
  });
});

describe("[R95] a ChatGPT conversation that cannot be imported says why", () => {
  const [, orphan, loop, hologram, critic, notObject] = broken;

  it("[R95] a parent missing from the conversation", () => {
    expect(failure(orphan)).toEqual({
      code: "invalid_request",
      message:
        'The conversation cannot be imported: message "o-a" names a parent "o-missing" that is not in it.',
    });
  });

  it("[R95] a cycle", () => {
    expect(failure(loop).message).toMatch(/form a cycle through "l-[xy]"/);
  });

  it("[R95] a content type with no readable text", () => {
    expect(failure(hologram).message).toMatch(/message "h-a" has content of type "hologram"/);
  });

  it("[R95] an unknown author role", () => {
    const { code, message } = failure(critic);
    expect(code).toBe("invalid_request");
    expect(message).toMatch(/mapping\.c-a\.message\.author\.role/);
  });

  it("[R95] something that is not a conversation, and a conversation with two roots", () => {
    expect(failure(notObject).message).toMatch(/no `mapping` of messages/);
    expect(failure([]).message).toMatch(/no `mapping`/);
    const twoRoots = conversation({ extra: { message: null, parent: null } });
    expect(failure(twoRoots).message).toMatch(/2 messages without a parent/);
  });

  it("[R95] a conversation with nothing visible", () => {
    const empty = conversation();
    const mapping = empty["mapping"] as Record<string, Raw>;
    delete mapping["a"];
    (mapping["u"] as Raw)["message"] = null;
    expect(failure(empty).message).toMatch(/no visible messages/);
  });

  it("[R95] more messages than the node cap, counted before any is read", () => {
    expect(failure(lisbon, { ...OPTIONS, maxNodes: 5 })).toEqual({
      code: "payload_too_large",
      message: "The conversation has 9 messages; this server imports at most 5.",
    });
  });

  it("[R95] a message longer than a node may be", () => {
    const c = conversation();
    const a = (c["mapping"] as Record<string, Raw>)["a"] as { message: Raw };
    a.message["content"] = { content_type: "text", parts: ["x".repeat(1_000_001)] };
    expect(failure(c)).toMatchObject({ code: "payload_too_large" });
  });

  it("[R95] a 50 MB conversation", () => {
    const part = "y".repeat(900_000);
    const mapping: Record<string, Raw> = { root: { message: null, parent: null } };
    let parent = "root";
    for (let i = 0; i < 60; i++) {
      const role = i % 2 ? "assistant" : "user";
      mapping[`m${i}`] = {
        message: { author: { role }, content: { content_type: "text", parts: [part] } },
        parent,
      };
      parent = `m${i}`;
    }
    expect(60 * part.length).toBeGreaterThan(50_000_000);
    expect(failure({ title: "Huge", mapping })).toEqual({
      code: "payload_too_large",
      message: `The conversation holds more than ${MAX_CONVERSATION_CHARS.toLocaleString("en")} characters of text; this server imports at most that much per conversation.`,
    });
  });

  it("[R95] a failed conversation's title is reported when it has one", () => {
    expect(chatGptTitle(orphan)).toBe("Orphan");
    expect(chatGptTitle(notObject)).toBeNull();
    expect(chatGptTitle({ title: "  " })).toBeNull();
  });
});
