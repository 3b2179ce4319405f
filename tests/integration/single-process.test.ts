import { spawn } from "node:child_process";
import { once } from "node:events";
import { expect, it } from "vitest";
import { claimSqliteFile } from "@/lib/db/single-process";
import { createSqliteDatabase } from "./support/databases";

/**
 * [R90] A SQLite file has one server process: a second one is refused at start with one
 * clear line naming the holder, and the claim ends with its process.
 */
it("[R90] a second server process on the same SQLite file is refused; the claim dies with its holder", async () => {
  const db = await createSqliteDatabase();
  const holder = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "--input-type=module",
      "-e",
      `import("./lib/db/single-process.ts").then(async (m) => { await m.claimSqliteFile(${JSON.stringify(db.url)}); console.log("claimed"); setInterval(() => {}, 1000); })`,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  try {
    const [chunk] = (await once(holder.stdout, "data")) as [Buffer];
    expect(chunk.toString()).toContain("claimed");
    await expect(claimSqliteFile(db.url)).rejects.toThrow(
      new RegExp(
        `^another Spindle server \\(pid \\d+\\) is already using .*test\\.db; stop it first`,
      ),
    );
  } finally {
    holder.kill("SIGKILL");
    await once(holder, "exit");
  }
  // Its process gone, the file can be claimed again (even after a SIGKILL).
  const release = await claimSqliteFile(db.url);
  await release();
  await db.drop();
});
