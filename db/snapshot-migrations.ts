import type pg from "pg";
import { readMigrationFiles, type MigrationMeta } from "drizzle-orm/migrator";
import { MIGRATIONS_FOLDER } from "./migrate";
import { SnapshotError, type SnapshotMigration } from "./snapshot-format";

// A snapshot's migrations against the database's: the same, or an older release's, brought forward
// by making the schema as that release had it, loading, then running this release's migrations.

/**
 * Null when the snapshot is at the database's migrations; the number of migrations it is at when
 * it is at an earlier point of the same history. Refuses any other.
 */
export function migrationsBehind(snapshot: SnapshotMigration[], database: SnapshotMigration[]): number | null {
  const same = (a: SnapshotMigration, b: SnapshotMigration) => a.hash === b.hash && a.createdAt === b.createdAt;
  if (snapshot.length === database.length && snapshot.every((m, i) => same(m, database[i]!))) return null;
  const known = new Set(database.map((m) => m.createdAt));
  const unknown = snapshot.filter((m) => !known.has(m.createdAt));
  const latest = database.reduce((max, m) => (BigInt(m.createdAt) > max ? BigInt(m.createdAt) : max), 0n);
  if (unknown.some((m) => BigInt(m.createdAt) > latest)) {
    throw new SnapshotError(
      "BACKUP_FROM_NEWER_RELEASE",
      `The snapshot was taken by a newer release of Oddwire (at ${snapshot.length} migrations, ${unknown.length} of them unknown here; this database has ${database.length}). ` +
        "Restore it with that release or a later one.",
    );
  }
  if (snapshot.length < database.length && snapshot.every((m, i) => same(m, database[i]!))) return snapshot.length;
  throw new SnapshotError(
    "BACKUP_OTHER_SCHEMA",
    `The snapshot's migrations (${snapshot.length}) are not this database's (${database.length}): it was taken of another history of Oddwire's schema.`,
  );
}

/** This release's migrations, when the database is at all of them (what bringing an older snapshot forward needs). */
export function releaseMigrations(snapshotAt: number, database: SnapshotMigration[]): MigrationMeta[] {
  const files = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER });
  const matches = files.length === database.length && files.every((file, i) => file.hash === database[i]!.hash && String(file.folderMillis) === database[i]!.createdAt);
  if (!matches) {
    throw new SnapshotError(
      "BACKUP_FROM_OLDER_RELEASE",
      `The snapshot was taken by an older release of Oddwire (at ${snapshotAt} migrations), and this database is not at this release's migrations, ` +
        "so the snapshot cannot be brought forward here: migrate the database first (oddwire migrate), or restore with the release that took the snapshot, then upgrade.",
    );
  }
  return files;
}

/** Runs migrations as drizzle's migrator does, on this connection (inside the caller's transaction). */
export async function applyMigrations(client: pg.PoolClient, migrations: MigrationMeta[]): Promise<void> {
  for (const migration of migrations) {
    for (const statement of migration.sql) if (statement.trim()) await client.query(statement);
    await client.query("INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ($1, $2)", [migration.hash, migration.folderMillis]);
  }
}

/**
 * Makes schema public (and the migrations journal) anew at the first `migrations`: the database
 * as the release that took an older snapshot had it. Inside the caller's transaction, so a failure
 * leaves the database as it was.
 */
export async function rebuildSchemaAt(client: pg.PoolClient, migrations: MigrationMeta[]): Promise<void> {
  const owner = (await client.query<{ owner: string }>("SELECT nspowner::regrole::text AS owner FROM pg_namespace WHERE nspname = 'public'")).rows[0]?.owner;
  await client.query("DROP SCHEMA public CASCADE");
  await client.query("DROP SCHEMA IF EXISTS drizzle CASCADE");
  // As PostgreSQL 15+ makes it: owned by the database's owner, usable by everyone.
  await client.query("CREATE SCHEMA public");
  if (owner) await client.query(`ALTER SCHEMA public OWNER TO ${owner}`);
  await client.query("GRANT USAGE ON SCHEMA public TO PUBLIC");
  await client.query("CREATE SCHEMA drizzle");
  await client.query("CREATE TABLE drizzle.__drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)");
  await applyMigrations(client, migrations);
}
