import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { PROJECT_ROOT } from "~/lib/project-root";
import type { Database } from "./client";

export const MIGRATIONS_FOLDER = path.join(PROJECT_ROOT, "db", "migrations");

let migrationCount: number | undefined;

/** How many committed migrations the database has not applied yet (health and readiness). */
export async function pendingMigrations(database: Database): Promise<number> {
  // The build's migrations do not change while it runs: read once (health checks ask often).
  migrationCount ??= (JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as { entries: unknown[] }).entries.length;
  let applied = 0;
  try {
    const result = (await database.db.execute(sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`)) as unknown as { rows: { n: number }[] };
    applied = Number(result.rows[0]?.n ?? 0);
  } catch {
    applied = 0; // no migrations table yet
  }
  return Math.max(0, migrationCount - applied);
}

/** Applies every committed SQL migration that the database has not seen yet. */
export async function runMigrations(database: Database): Promise<void> {
  // The migrator wants a database without the schema's query builder: a thin one over the same pool.
  await migratePg(drizzlePg(database.pool), { migrationsFolder: MIGRATIONS_FOLDER });
}
