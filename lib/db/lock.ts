import fs from "node:fs";
import path from "node:path";

export class DataDirLockedError extends Error {
  override name = "DataDirLockedError";
}

type LockInfo = { pid: number; command: string; startedAt: string };

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readLock(lockPath: string): LockInfo | undefined {
  try {
    return JSON.parse(fs.readFileSync(lockPath, "utf8")) as LockInfo;
  } catch {
    return undefined;
  }
}

/**
 * PGlite has no lock of its own, and two processes on one directory lose data silently.
 * Take an exclusive lock file; a lock left by a dead process is taken over.
 * Returns the release function (also run on process exit).
 */
export function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const lockPath = path.join(dir, "pglite.lock");
  const info: LockInfo = {
    pid: process.pid,
    command: process.argv.slice(1).join(" ").slice(0, 200),
    startedAt: new Date().toISOString(),
  };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, JSON.stringify(info), { flag: "wx", mode: 0o600 });
      const release = () => {
        if (readLock(lockPath)?.pid === process.pid) fs.rmSync(lockPath, { force: true });
      };
      process.once("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = readLock(lockPath);
      if (holder && holder.pid === process.pid) return () => {};
      if (holder && isAlive(holder.pid)) {
        throw new DataDirLockedError(
          `The data directory ${dir} is in use by process ${holder.pid} (${holder.command || "unknown command"}, since ${holder.startedAt}). ` +
            "Stop that process first, or set DATA_DIR to another directory, or DATABASE_URL to use PostgreSQL.",
        );
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dir}: another process keeps taking it.`);
}
