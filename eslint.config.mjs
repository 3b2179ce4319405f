import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import nextPlugin from "@next/eslint-plugin-next";

// The layers and who may import whom (docs/architecture.md). Dependencies point inward:
//   engine ← store, llm, events, search ← view ← compaction, audit ← dispatcher ← http, server ← app
// and components see the engine, the wire types and the schemas, never the server's parts.
// Each rule is proven to fire by tests/unit/boundaries.test.ts, which lints fixtures that
// cross a boundary.

/** An import of `lib/<dir>` however it is written: `../dir/x`, `@/lib/dir/x`, `../../lib/dir`. */
function layer(...dirs) {
  return `^(\\.\\./|@/lib/|(\\.\\./)+lib/)(${dirs.join("|")})(/|$)`;
}

/** Only lib/store and lib/db reach the database client ([R62]). */
const DATABASE = {
  group: ["@prisma/*", "**/generated/**", "*/generated/*"],
  message: "Only lib/store and lib/db reach the database.",
};
const SERVER_EDGE = ["http", "server", "auth"];
const UI = {
  regex: "^(@/|(\\.\\./)+)(components|app)(/|$)",
  message: "lib/ never imports from components/ or app/.",
};

/**
 * The whole session store is for the composition root (lib/server) and tests: every other
 * consumer takes the narrow interfaces of the parts it uses (docs/architecture.md).
 */
const WHOLE_STORE = {
  regex: `${layer("store").slice(0, -"(/|$)".length)}/session-store$`,
  importNames: ["SessionStore", "openSessionStore"],
  message:
    "Take the store's narrow interfaces (SessionRows, LedgerReads, LedgerWrites, StreamLeases…), not the whole SessionStore.",
};

/** `no-restricted-imports` for a part of lib/: the database client, the UI, and `layers`. */
function libRule(rules, { database = false, wholeStore = false } = {}) {
  return [
    "error",
    {
      patterns: [
        UI,
        ...(database ? [] : [DATABASE]),
        ...(wholeStore ? [] : [WHOLE_STORE]),
        ...rules.map(([dirs, message]) => ({ regex: layer(...dirs), message })),
      ],
    },
  ];
}

// lib/engine is pure TypeScript over plain data: no framework, database, network, timers or
// clock. Time and ids are passed in, so every engine function is deterministic and testable
// ([R6]). It imports nothing but itself.
const engineBoundary = {
  files: ["lib/engine/**/*.ts"],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
          {
            regex: "^(?!\\./)",
            message: "lib/engine imports only lib/engine: no framework, database, network or edge.",
          },
        ],
      },
    ],
    "no-restricted-globals": [
      "error",
      { name: "fetch", message: "lib/engine does no I/O." },
      { name: "process", message: "lib/engine reads no environment." },
      { name: "setTimeout", message: "lib/engine has no timers." },
      { name: "setInterval", message: "lib/engine has no timers." },
      { name: "setImmediate", message: "lib/engine has no timers." },
      { name: "queueMicrotask", message: "lib/engine has no timers." },
    ],
    "no-restricted-syntax": [
      "error",
      {
        selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
        message: "lib/engine takes time as an argument.",
      },
      {
        selector: "NewExpression[callee.name='Date'][arguments.length=0]",
        message: "lib/engine takes time as an argument.",
      },
      {
        selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']",
        message: "lib/engine takes ids as arguments.",
      },
    ],
  },
};

const UPPER = "is a layer above";
const boundaries = [
  // The store and the database know the engine and nothing that uses them.
  {
    files: ["lib/store/**/*.ts", "lib/db/**/*.ts"],
    rules: {
      "no-restricted-imports": libRule(
        [
          [["dispatcher", "compaction", "view"], `The store knows no turn: lib/store ${UPPER}.`],
          [["portability"], "The store and portability share types through lib/engine."],
          [[...SERVER_EDGE, "llm", "events"], `lib/store is an edge of its own: that ${UPPER}.`],
        ],
        { database: true, wholeStore: true },
      ),
    },
  },
  // The other edges: providers, the event channel, search terms, configuration.
  {
    files: ["lib/llm/**/*.ts", "lib/events/**/*.ts", "lib/search/**/*.ts", "lib/config/**/*.ts"],
    rules: {
      "no-restricted-imports": libRule([
        [["store", "db"], "Only the store reads the database."],
        [["dispatcher", "compaction", "view", "portability", ...SERVER_EDGE], `That ${UPPER}.`],
      ]),
    },
  },
  // What the model reads from a head: the store's reads through the engine's rule.
  {
    files: ["lib/view/**/*.ts"],
    rules: {
      "no-restricted-imports": libRule([
        [["dispatcher", "compaction", "portability", ...SERVER_EDGE], `That ${UPPER}.`],
      ]),
    },
  },
  // Compaction is called by turns through a port; it never imports the dispatcher.
  {
    files: ["lib/compaction/**/*.ts"],
    rules: {
      "no-restricted-imports": libRule([
        [["dispatcher"], "Compaction never imports the dispatcher: it takes ports (isBusy)."],
        [["portability", ...SERVER_EDGE], `That ${UPPER}.`],
      ]),
    },
  },
  // The summary audit reads a summary's originals and asks models; like compaction it takes
  // what it needs as arguments and never imports the dispatcher.
  {
    files: ["lib/audit/**/*.ts"],
    rules: {
      "no-restricted-imports": libRule([
        [["dispatcher"], "The audit never imports the dispatcher: it is given what it needs."],
        [["portability", ...SERVER_EDGE], `That ${UPPER}.`],
      ]),
    },
  },
  {
    files: ["lib/portability/**/*.ts"],
    rules: {
      "no-restricted-imports": libRule([
        [["store", "db"], "Portability plans; the store writes (types shared through lib/engine)."],
        [["dispatcher", "compaction", "view", "server", "auth"], `That ${UPPER}.`],
      ]),
    },
  },
  {
    files: ["lib/dispatcher/**/*.ts"],
    rules: {
      "no-restricted-imports": libRule([
        [["server"], "The dispatcher is assembled by lib/server, never the reverse."],
      ]),
    },
  },
  {
    files: ["lib/http/**/*.ts", "lib/auth/**/*.ts"],
    rules: { "no-restricted-imports": libRule([]) },
  },
  // The composition root assembles the whole store and hands each part its interfaces.
  {
    files: ["lib/server/**/*.ts"],
    rules: { "no-restricted-imports": libRule([], { wholeStore: true }) },
  },
  // Browser code sees the engine, wire types and schemas; never the server's parts.
  {
    files: ["components/**/*.ts", "components/**/*.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            DATABASE,
            {
              regex: layer("store", "db", "llm", "dispatcher", "compaction", "view", "audit"),
              message: "Components never import lib/store, lib/db, lib/llm or the turn's code.",
            },
          ],
        },
      ],
    },
  },
  // Route handlers go through the workspace (lib/http/guard), never the store.
  {
    files: ["app/**/*.ts", "app/**/*.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            DATABASE,
            {
              regex: layer("store"),
              message: "Routes and pages never import the store: they call the workspace.",
            },
          ],
        },
      ],
    },
  },
];

// HEAD has one writer ([R62], compaction.md §5). Outside the store, HEAD moves only through
// `Dispatcher.moveHead` (checkout, rewind) and a turn's chain writes only through the
// TurnWriter (which alone applies the turn's head policy) — and compaction's one head-neutral
// summary insert. Inside the store, only the methods that own a HEAD rule write `headId`.
const SET_HEAD = {
  selector:
    "CallExpression[callee.property.name='setHead']:not(MethodDefinition[key.name='moveHead'] CallExpression)",
  message: "HEAD moves only through Dispatcher.moveHead (checkout, rewind) ([R62]).",
};
const STORE_APPEND = {
  selector:
    "CallExpression[callee.property.name=/^(append|appendNode|openTurn|openReply|appendSummary)$/]:matches([callee.object.name='store'], [callee.object.property.name='store'])",
  message:
    "A turn's chain writes go through the TurnWriter, which applies the head policy ([R62]).",
};
const WRITES_HEAD_ID =
  ":matches(CallExpression[callee.property.name=/^(update|updateMany|upsert|create|createMany)$/] Property[key.name='headId'], AssignmentExpression > MemberExpression.left[property.name='headId'])";
const HEAD_WRITERS = "setHead|append|removeNodes|createSession|importSession";
const HEAD_WRITE = {
  selector: `MethodDefinition[key.name!=/^(${HEAD_WRITERS})$/] ${WRITES_HEAD_ID}`,
  message:
    "Only setHead, the append rule, branch delete and session creation write headId ([R62]).",
};
/** The other parts of the store never write HEAD at all. */
const HEAD_WRITE_ELSEWHERE = {
  selector: WRITES_HEAD_ID,
  message:
    "Only lib/store/ledger-writes.ts (setHead, the append rule, branch delete, session creation) and an import's staging write headId ([R62]).",
};
const headRules = [
  {
    // The browser's own store keeps a local HEAD; these rules are about the server's.
    files: ["lib/**/*.ts", "app/**/*.ts", "app/**/*.tsx"],
    ignores: [
      "lib/engine/**",
      "lib/store/**",
      "lib/dispatcher/turn-writer.ts",
      "lib/compaction/compactor.ts",
    ],
    rules: { "no-restricted-syntax": ["error", SET_HEAD, STORE_APPEND] },
  },
  {
    files: ["lib/dispatcher/turn-writer.ts", "lib/compaction/compactor.ts"],
    rules: { "no-restricted-syntax": ["error", SET_HEAD] },
  },
  // In the store, HEAD is written by the one module of HEAD writes (and an import's new row).
  {
    files: ["lib/store/ledger-writes.ts", "lib/store/import-staging.ts"],
    rules: { "no-restricted-syntax": ["error", HEAD_WRITE] },
  },
  {
    files: ["lib/store/**/*.ts"],
    ignores: ["lib/store/ledger-writes.ts", "lib/store/import-staging.ts"],
    rules: { "no-restricted-syntax": ["error", HEAD_WRITE_ELSEWHERE] },
  },
];

export default tseslint.config(
  {
    ignores: [
      "node_modules/",
      ".next/",
      "lib/generated/",
      "prisma/postgres/",
      "test-results/",
      "playwright-report/",
      // Boundary fixtures cross boundaries on purpose; tests/unit/boundaries.test.ts lints them.
      "tests/fixtures/boundaries/",
      "next-env.d.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        console: "readonly",
        process: "readonly",
        URL: "readonly",
        Buffer: "readonly",
        TextEncoder: "readonly",
        TextDecoder: "readonly",
        AbortController: "readonly",
        AbortSignal: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
        fetch: "readonly",
        Response: "readonly",
        Request: "readonly",
        Headers: "readonly",
        ReadableStream: "readonly",
        window: "readonly",
        document: "readonly",
        structuredClone: "readonly",
      },
    },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/ban-ts-comment": [
        "error",
        { "ts-ignore": true, "ts-expect-error": "allow-with-description" },
      ],
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "no-console": "off",
    },
  },
  {
    files: ["**/*.tsx", "components/**/*.ts", "app/**/*.ts"],
    plugins: { "react-hooks": reactHooks, "@next/next": nextPlugin },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...nextPlugin.configs.recommended.rules,
    },
  },
  engineBoundary,
  ...boundaries,
  // Every browser flow runs under the CSP guard ([R149]): specs take `test` from the support
  // module that adds it, never straight from Playwright.
  {
    files: ["e2e/**/*.spec.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "@playwright/test",
              importNames: ["test"],
              message:
                "Specs import `test` from ./support/test, which fails a test on a CSP violation.",
            },
          ],
        },
      ],
    },
  },
  ...headRules,
  {
    // Vendored-from-reference migration driver talks to Prisma-internal, untyped glue.
    files: ["scripts/schema-engine.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    files: ["**/*.mjs"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
