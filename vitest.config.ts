import { defineConfig } from "vitest/config";
import path from "node:path";

const alias = { "@": path.resolve(import.meta.dirname) };

export default defineConfig({
  resolve: { alias },
  test: {
    // Vitest's default leaves one of this machine's two cores idle; the files are
    // independent (own databases, own ports), so both cores run them.
    maxWorkers: 2,
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts"],
          environment: "node",
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          pool: "forks",
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Integration files share the PostgreSQL server; each creates its own databases
          // (a uniquely named PostgreSQL database, a temporary SQLite file) and its own
          // servers on port 0, so files run side by side, one per core.
        },
      },
      {
        resolve: { alias },
        test: {
          // Runs after `next build`: inspects the build output (tests/build/*).
          name: "build",
          include: ["tests/build/**/*.test.ts"],
          environment: "node",
        },
      },
    ],
  },
});
