import { defineConfig } from "vitest/config";
import path from "node:path";

const alias = { "@": path.resolve(import.meta.dirname) };

export default defineConfig({
  resolve: { alias },
  test: {
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
          // Integration files share the PostgreSQL server; each creates its own database.
          fileParallelism: false,
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
