import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { fuzzystrmatch } from "@electric-sql/pglite/contrib/fuzzystrmatch";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import type { Db } from "../client";
import { MIGRATIONS_FOLDER } from "../migrate";
import { schema } from "../schema";

// The embedded database of earlier releases, for carry-over tests and benchmarks: PGlite in
// DATA_DIR/pglite with the extensions those releases loaded, migrated with drizzle's PGlite migrator
// as they did. Only tests and benchmarks load PGlite in their own process.

export type EarlierDatabase = {
  db: Db;
  exec(sqlText: string): Promise<void>;
  close(): Promise<void>;
};

/**
 * Opens (or makes) an earlier release's database in DATA_DIR/pglite and migrates it with
 * `migrationsFolder`'s migrations (this release's by default; null: not at all).
 */
export async function openEarlierDatabase(dataDir: string, options: { migrationsFolder?: string | null } = {}): Promise<EarlierDatabase> {
  mkdirSync(dataDir, { recursive: true });
  const pglite = await PGlite.create({ dataDir: path.join(dataDir, "pglite"), extensions: { pg_trgm, unaccent, fuzzystrmatch } });
  const db = drizzle(pglite, { schema });
  const migrationsFolder = options.migrationsFolder === undefined ? MIGRATIONS_FOLDER : options.migrationsFolder;
  try {
    if (migrationsFolder !== null) await migrate(db, { migrationsFolder });
  } catch (error) {
    await pglite.close();
    throw error;
  }
  return {
    db,
    exec: async (sqlText) => {
      await pglite.exec(sqlText);
    },
    close: () => pglite.close(),
  };
}
