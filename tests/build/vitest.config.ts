import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * Build checks run on their own, after `next build`; the default unit and integration
 * projects never include tests/build.
 */
const root = path.resolve(import.meta.dirname, "../..");

export default defineConfig({
  root,
  resolve: { alias: { "@": root } },
  test: { include: ["tests/build/**/*.test.ts"], environment: "node" },
});
