import { SNAPSHOT_FORMAT, SNAPSHOT_VERSION } from "./snapshot-catalog.mjs";

// What a snapshot is (db/snapshot.ts says how it is laid out): its header, what it held, and why one
// is refused.

// A header is a few kilobytes; a first "line" longer than this is not one.
export const MAX_HEADER_BYTES = 4 * 1024 * 1024;
// How every header starts (its first key): a file that starts so and breaks is a damaged snapshot.
export const HEADER_START = `{"format":"${SNAPSHOT_FORMAT}"`;

export type SnapshotMigration = { hash: string; createdAt: string };
export type SnapshotColumn = { name: string; type: string };
export type SnapshotTable = { name: string; columns: SnapshotColumn[]; rows: number };
export type SnapshotSequence = { name: string; lastValue: string; isCalled: boolean };
export type SnapshotHeader = {
  format: typeof SNAPSHOT_FORMAT;
  version: number;
  takenAt: string;
  server: string;
  /** drizzle.__drizzle_migrations, oldest first: which migrations the data is at. */
  migrations: SnapshotMigration[];
  tables: SnapshotTable[];
  sequences: SnapshotSequence[];
};

/** What a snapshot held: rows per table, and in all. */
export type SnapshotCounts = {
  tables: Record<string, number>;
  rows: number;
  /** The migrations the snapshot was at. */
  migrations: number;
  /** On import: this release's migrations that ran on the rows after they were loaded (an older release's snapshot). */
  migrationsRun: number;
};

export type SnapshotErrorCode =
  /** Not a snapshot at all (not gzip, no header, another format or version). */
  | "NOT_A_BACKUP"
  /** A snapshot, but cut short or damaged (gzip error, missing rows or trailer, a row PostgreSQL refuses). */
  | "BACKUP_DAMAGED"
  /** Taken at migrations this database does not have yet: restore it with a newer release. */
  | "BACKUP_FROM_NEWER_RELEASE"
  /** Taken by an older release, and it cannot be brought forward here (the database is not at this release's migrations, or they fail on its rows). */
  | "BACKUP_FROM_OLDER_RELEASE"
  /** Taken at another history of migrations, or with other tables or columns than this database has. */
  | "BACKUP_OTHER_SCHEMA"
  /** Loading needs a superuser (session_replication_role), which this connection is not. */
  | "NEEDS_SUPERUSER";

/** A refusal or failure of a snapshot's export or import, with a code a command can print. */
export class SnapshotError extends Error {
  constructor(
    readonly code: SnapshotErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "SnapshotError";
  }
}

/** The header line read as one: of this format and version, with every part. */
export function parseHeader(line: string | null): SnapshotHeader {
  let header: Partial<SnapshotHeader> | undefined;
  try {
    header = line === null ? undefined : (JSON.parse(line) as Partial<SnapshotHeader>);
  } catch {
    header = undefined;
  }
  if (!header || header.format !== SNAPSHOT_FORMAT) throw new SnapshotError("NOT_A_BACKUP", "The file is not an Oddwire snapshot (its header is missing).");
  if (header.version !== SNAPSHOT_VERSION) {
    throw new SnapshotError("NOT_A_BACKUP", `The snapshot is of format version ${String(header.version)}; this release reads version ${SNAPSHOT_VERSION}.`);
  }
  if (!Array.isArray(header.migrations) || !Array.isArray(header.tables) || !Array.isArray(header.sequences)) {
    throw new SnapshotError("BACKUP_DAMAGED", "The snapshot's header is incomplete.");
  }
  return header as SnapshotHeader;
}
