import { createReadStream, createWriteStream, existsSync, statSync } from "node:fs";
import { open, rename, rm } from "node:fs/promises";
import path from "node:path";
import { finished } from "node:stream/promises";
import { sql } from "drizzle-orm";
import type { Database } from "~/db/client";
import { exportSnapshot, importSnapshot } from "~/db/snapshot";
import { SnapshotError } from "~/db/snapshot-format";

// Backups of the embedded database (decision 012): a snapshot of every table, read in one
// REPEATABLE READ transaction (db/snapshot.ts), so it is consistent while the site writes. The
// command takes it itself, on the embedded server it shares with the running site.

/** A refusal or failure of backup or restore, with the code the CLI prints. */
export class BackupError extends Error {
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "BackupError";
  }
}

export type BackupResult = { bytes: number; rows: number; tables: number; migrations: number };

/**
 * Writes a snapshot of the database to FILE: owner-only (it holds password hashes and sessions),
 * and never half-written under FILE's name (written beside it, synced, then renamed).
 */
export async function writeBackup(database: Database, file: string, options: { force?: boolean } = {}): Promise<BackupResult> {
  if (existsSync(file) && options.force !== true) {
    throw new BackupError("FILE_EXISTS", `${file} already exists: choose another name, or pass --force to replace it.`);
  }
  const directory = path.dirname(file);
  if (!existsSync(directory) || !statSync(directory).isDirectory()) {
    throw new BackupError("NO_SUCH_DIRECTORY", `The directory ${directory} does not exist: create it first.`);
  }
  const partial = `${file}.${process.pid}.partial`;
  try {
    const out = createWriteStream(partial, { flags: "wx", mode: 0o600 });
    const written = finished(out);
    const counts = await exportSnapshot(database, out);
    await written;
    const handle = await open(partial, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(partial, file);
    return { bytes: statSync(file).size, rows: counts.rows, tables: Object.keys(counts.tables).length, migrations: counts.migrations };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

export type RestoreResult = { categories: number; stories: number; sources: number; users: number; migrations: number };

/**
 * Loads a backup into a database that holds nothing yet (a new DATA_DIR, migrated): in one
 * transaction, so a file that is not a whole backup changes nothing. A database with content is
 * refused, so nothing is overwritten.
 */
export async function restoreBackup(database: Database, file: string): Promise<RestoreResult> {
  if (!existsSync(file)) throw new BackupError("NO_SUCH_FILE", `${file} does not exist.`);
  const held = await contentCounts(database);
  const nonEmpty = Object.entries(held).filter(([table, n]) => table !== "migrations" && n > 0);
  if (nonEmpty.length > 0) {
    throw new BackupError(
      "DATA_DIR_NOT_EMPTY",
      `The database already holds ${nonEmpty.map(([table, n]) => `${n} ${table}`).join(", ")}. Restore loads only into an empty database, so nothing is overwritten: ` +
        "point DATA_DIR at a new directory, or move this one aside first.",
    );
  }
  await importSnapshot(database, createReadStream(file));
  return contentCounts(database);
}

async function contentCounts(database: Database): Promise<RestoreResult> {
  const result = await database.db.execute(
    sql`SELECT (SELECT count(*)::int FROM categories) AS categories, (SELECT count(*)::int FROM stories) AS stories,
               (SELECT count(*)::int FROM sources) AS sources, (SELECT count(*)::int FROM users) AS users,
               (SELECT count(*)::int FROM drizzle.__drizzle_migrations) AS migrations`,
  );
  return (result as unknown as { rows: RestoreResult[] }).rows[0] as RestoreResult;
}

/** The code and message of a snapshot's refusal, as the CLI prints them. */
export function backupErrorOf(error: unknown): BackupError | null {
  if (error instanceof BackupError) return error;
  if (error instanceof SnapshotError) return new BackupError(error.code, error.message, { cause: error });
  return null;
}
