import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync, renameSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { PROJECT_ROOT } from "~/lib/project-root";
import { dateOf, systemClock, type Clock } from "~/lib/clock";
import type { Database } from "../client";
import { importSnapshot } from "../snapshot";
import { SnapshotError, type SnapshotCounts } from "../snapshot-format";

// The carry-over from the embedded database of earlier releases (PGlite, in DATA_DIR/pglite) into
// the PostgreSQL server that replaces it. PGlite's files are PostgreSQL 18 built for 32-bit wasm: no
// native server opens them, so they are read through PGlite, in a child process (the only code that
// still loads it), as a table snapshot that importSnapshot loads.

const READER = path.join(PROJECT_ROOT, "db", "embedded", "carry-over-reader.mjs");
/** Where earlier releases keep the embedded database, inside DATA_DIR. */
export const PGLITE_DIR = "pglite";
/** The file in DATA_DIR in which a process of an earlier release wrote its pid while it held the database. */
export const EARLIER_LOCK_FILE = "oddwire.lock";
// What the reader may say on stderr before its last line; more is cut.
const MAX_STDERR = 64 * 1024;

export type CarryOverLogger = {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
};

export type CarryOverResult = {
  /** Rows per table, and in all, now in the target. */
  counts: SnapshotCounts;
  /** Where DATA_DIR/pglite went: kept, not deleted. Null if it could not be moved (said in the log). */
  movedTo: string | null;
  /** This release's migrations that ran on the rows after they came over (the PGlite data was an earlier release's). */
  migrationsRun: number;
};

/** The carry-over failed: the old files are untouched and the target is as it was. */
export class CarryOverError extends Error {
  readonly code = "CARRY_OVER_FAILED";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "CarryOverError";
  }
}

/** The pid of another live process that holds DATA_DIR the way earlier releases did, if any. */
function otherHolder(dataDir: string): number | null {
  let pid: number;
  try {
    pid = Number.parseInt(readFileSync(path.join(dataDir, EARLIER_LOCK_FILE), "utf8"), 10);
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid === process.pid || pid === process.ppid) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM" ? pid : null;
  }
}

/** The reader's last line on stderr: how it ended. */
function readerOutcome(stderr: string): { error?: string; maxRssMb?: number } {
  const last = stderr.trim().split("\n").at(-1) ?? "";
  try {
    return JSON.parse(last) as { error?: string; maxRssMb?: number };
  } catch {
    return last ? { error: last } : {};
  }
}

/**
 * On the first start of the PostgreSQL default, brings the database of an earlier release's
 * DATA_DIR/pglite into `target` (migrated, with no users or stories yet), then moves the old files
 * aside to DATA_DIR/pglite.carried-over-<time>. Null when there is nothing to carry over. Data at an
 * earlier release's migrations is brought forward by the import; the old files are not migrated.
 * Refused while a live process of an earlier release holds DATA_DIR (its oddwire.lock).
 */
export async function carryOverPglite(options: {
  dataDir: string;
  target: Database;
  logger: CarryOverLogger;
  now?: Clock;
}): Promise<CarryOverResult | null> {
  const { target, logger } = options;
  const dataDir = path.resolve(options.dataDir);
  const pgliteDir = path.join(dataDir, PGLITE_DIR);
  if (!existsSync(path.join(pgliteDir, "PG_VERSION"))) return null;

  const used = await target.db.execute(sql`SELECT EXISTS (SELECT 1 FROM users) OR EXISTS (SELECT 1 FROM stories) AS used`);
  if ((used as unknown as { rows: { used: boolean }[] }).rows[0]?.used) {
    logger.warn(
      { pgliteDir },
      `${pgliteDir} holds an earlier release's database, but the database already has users or stories: it is not carried over, and the old files are left where they are`,
    );
    return null;
  }

  // Two processes with PGlite on the same files would damage them: an earlier release still running
  // there must stop first.
  const holder = otherHolder(dataDir);
  if (holder !== null) {
    throw new CarryOverError(
      `The earlier release's database in ${pgliteDir} is in use by another process (pid ${holder}): stop it, then start again to carry the database over. Its files are untouched.`,
    );
  }

  const started = performance.now();
  const reader = spawn(process.execPath, [READER, pgliteDir], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  reader.stderr.setEncoding("utf8").on("data", (text: string) => {
    stderr = (stderr + text).slice(-MAX_STDERR);
  });
  const exited = once(reader, "close") as Promise<[number | null, NodeJS.Signals | null]>;
  let counts: SnapshotCounts | undefined;
  let importError: unknown;
  try {
    counts = await importSnapshot(target, reader.stdout);
  } catch (error) {
    importError = error;
    // A reader still writing would wait for a reader of its pipe for ever.
    if (reader.exitCode === null) reader.kill();
  }
  const [code, signal] = await exited;
  const outcome = readerOutcome(stderr);
  if (counts === undefined) {
    // When the stream broke off, the reader's own error says why; a refusal of the import (other
    // migrations, say) is the reason, whatever the reader made of its pipe closing.
    const streamBroke = !(importError instanceof SnapshotError) || importError.code === "BACKUP_DAMAGED" || importError.code === "NOT_A_BACKUP";
    const readerFailed = code !== 0 && signal === null;
    const why =
      readerFailed && streamBroke ? `reading it failed: ${outcome.error ?? `exit code ${code}`}` : `loading it failed: ${(importError as Error).message}`;
    throw new CarryOverError(`The earlier release's database in ${pgliteDir} could not be carried over (${why}). Its files are untouched.`, {
      cause: importError,
    });
  }

  const stamp = dateOf(options.now ?? systemClock).toISOString().replace(/[:.]/g, "-");
  let movedTo: string | null = path.join(dataDir, `${PGLITE_DIR}.carried-over-${stamp}`);
  try {
    renameSync(pgliteDir, movedTo);
  } catch (error) {
    // The data is in: serving goes on, and later starts skip the carry-over (the database has data).
    logger.warn({ err: error, pgliteDir }, `the earlier release's database was carried over, but ${pgliteDir} could not be moved aside: move it yourself`);
    movedTo = null;
  }
  const { tables } = counts;
  const summary = `${tables.users ?? 0} users, ${tables.sessions ?? 0} sessions, ${tables.stories ?? 0} stories, ${tables.categories ?? 0} categories, ${tables.sources ?? 0} sources`;
  logger.info(
    { rows: tables, totalRows: counts.rows, migrationsRun: counts.migrationsRun, ms: Math.round(performance.now() - started), readerMaxRssMb: outcome.maxRssMb, movedTo },
    `carried the earlier release's embedded database over into PostgreSQL: ${summary} (${counts.rows} rows in ${Object.keys(tables).length} tables)` +
      (movedTo ? `; the old files are kept in ${movedTo}` : ""),
  );
  return { counts, movedTo, migrationsRun: counts.migrationsRun };
}
