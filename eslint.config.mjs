import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import nextPlugin from "@next/eslint-plugin-next";

// lib/engine is pure TypeScript over plain data: no framework, database, network, timers or
// clock. Time and ids are passed in, so every engine function is deterministic and testable.
const engineBoundary = {
  files: ["lib/engine/**/*.ts"],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
          { group: ["react", "react-*", "react/*"], message: "lib/engine is framework-free." },
          { group: ["next", "next/*"], message: "lib/engine is framework-free." },
          {
            group: ["@prisma/*", "**/generated/**"],
            message: "Only lib/store touches the database.",
          },
          { group: ["zustand", "zustand/*"], message: "The client store lives in components/." },
          { group: ["openai", "openai/*"], message: "Providers live in lib/llm." },
          {
            group: [
              "@/lib/store/*",
              "@/lib/llm/*",
              "@/lib/dispatcher/*",
              "@/components/*",
              "@/app/*",
            ],
            message: "Dependencies point inward: lib/engine imports nothing of the edges.",
          },
        ],
      },
    ],
    "no-restricted-globals": [
      "error",
      { name: "fetch", message: "lib/engine does no I/O." },
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

// lib/ never reaches up into the UI.
const libBoundary = {
  files: ["lib/**/*.ts"],
  ignores: ["lib/engine/**"],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
          {
            group: ["@/components/*", "@/app/*"],
            message: "lib/ never imports from components/ or app/.",
          },
        ],
      },
    ],
  },
};

export default tseslint.config(
  {
    ignores: [
      "node_modules/",
      ".next/",
      "lib/generated/",
      "prisma/postgres/",
      "test-results/",
      "playwright-report/",
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
  libBoundary,
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
