import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

export const LOCK_FILE = "oddwire.lock";

/** Thrown when another live process already holds a PGlite data directory. */
export class DataDirInUseError extends Error {
  readonly code = "DATA_DIR_IN_USE";
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The data directory ${dataDir} is in use by another Oddwire process (pid ${pid}). ` +
        "The embedded database allows one process at a time: stop that process first, " +
        "or run both on PostgreSQL (set DATABASE_URL).",
    );
    this.name = "DataDirInUseError";
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

// Directories this process holds: a second open in the same process is refused too.
const heldHere = new Set<string>();

/** Takes the data directory for this process (PGlite has no lock of its own); returns its release. */
export function lockDataDir(dataDir: string): () => void {
  const dir = path.resolve(dataDir);
  if (heldHere.has(dir)) throw new DataDirInUseError(dir, process.pid);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, LOCK_FILE);
  // The pid is written before the lock appears (link is atomic), so no reader ever sees it empty.
  const draft = `${file}.${process.pid}.${Date.now()}`;
  writeFileSync(draft, String(process.pid));
  try {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        linkSync(draft, file);
        heldHere.add(dir);
        return () => {
          heldHere.delete(dir);
          rmSync(file, { force: true });
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        const pid = Number.parseInt(readFileSync(file, "utf8"), 10);
        if (Number.isInteger(pid) && pid !== process.pid && isAlive(pid)) throw new DataDirInUseError(dir, pid);
        // A lock left by a process that died (or by an earlier run with our pid, as in containers): take it over.
        rmSync(file, { force: true });
      }
    }
  } finally {
    rmSync(draft, { force: true });
  }
  throw new Error(`Could not lock the data directory ${dir}`);
}
