import { createHash } from "node:crypto";
import { realpathSync, unlinkSync } from "node:fs";
import { connect, createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensureSqliteDirectory, sqliteFilePath } from "./paths";

/** Another live server process holds the SQLite file. */
export class DatabaseInUseError extends Error {
  override readonly name = "DatabaseInUseError";
}

/**
 * Claims a SQLite file for this server process. A SQLite deployment has exactly one server
 * process — start-up seals every reply still marked streaming, which is only right if no
 * other process could be writing one — so a second server on the same file is refused with
 * one clear line. The claim is a local socket named after the file: Linux's abstract
 * namespace vanishes with its process; elsewhere a stale socket file (its process died) is
 * detected by a refused connection and replaced. A live holder answers with its pid.
 *
 * @returns a function that releases the claim (graceful shutdown, tests).
 */
export async function claimSqliteFile(url: string): Promise<() => Promise<void>> {
  // One name per file, however it is reached (a symlinked folder, a relative path).
  ensureSqliteDirectory(url);
  const given = sqliteFilePath(url);
  const file = path.join(realpathSync(path.dirname(given)), path.basename(given));
  const name = `spindle-${createHash("sha256").update(file).digest("hex").slice(0, 24)}`;
  const address = process.platform === "linux" ? `\0${name}` : path.join(tmpdir(), `${name}.sock`);
  const server = createServer((socket) => socket.end(`${process.pid}\n`));
  server.unref();
  try {
    await listen(server, address);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EADDRINUSE") throw e;
    const holder = await ask(address);
    if (holder === null && !address.startsWith("\0")) {
      unlinkSync(address);
      await listen(server, address);
    } else {
      throw new DatabaseInUseError(
        `another Spindle server${holder ? ` (pid ${holder})` : ""} is already using ${file}; stop it first (a SQLite database has one server process; use PostgreSQL to run several)`,
      );
    }
  }
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}

function listen(server: Server, address: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (e: Error) => reject(e);
    server.once("error", fail);
    server.listen(address, () => {
      server.off("error", fail);
      resolve();
    });
  });
}

/** The pid the holder of `address` answers with, or null when nothing listens there. */
function ask(address: string): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = connect(address);
    let text = "";
    socket.setTimeout(2_000, () => socket.destroy());
    socket.on("data", (d) => (text += d.toString()));
    socket.on("end", () => resolve(text.trim() || "unknown"));
    socket.on("error", () => resolve(null));
    socket.on("close", () => resolve(text.trim() || null));
  });
}
