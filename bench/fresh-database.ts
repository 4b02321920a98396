import { rmSync } from "node:fs";
import { openDatabase, type Database } from "~/db/client";
import { openEmbeddedDatabase } from "~/server/database";
import { tempDir } from "~/test/temp-dir";
import { adminUrl, createDatabaseSql, dropDatabaseSql } from "~/db/testing/postgres-admin";

/** The databases a benchmark runs on: the product's embedded server, or a PostgreSQL server of one's own. */
export const BENCH_DATABASE_KINDS = ["embedded", "postgres"] as const;
export type BenchDatabaseKind = (typeof BENCH_DATABASE_KINDS)[number];

/** BENCH_DATABASES (default "embedded,postgres") as a list; an unknown name throws. */
export function benchDatabases(value = process.env.BENCH_DATABASES): BenchDatabaseKind[] {
  const kinds = (value?.trim() || BENCH_DATABASE_KINDS.join(","))
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const kind of kinds) {
    if (!(BENCH_DATABASE_KINDS as readonly string[]).includes(kind)) throw new Error(`BENCH_DATABASES: unknown database "${kind}" (known: ${BENCH_DATABASE_KINDS.join(", ")})`);
  }
  return kinds as BenchDatabaseKind[];
}

/**
 * An empty database for one benchmark run: the embedded server in a fresh temporary DATA_DIR
 * (`dataDir`, to find its processes), or a PostgreSQL database `name` created afresh on `pgUrl`
 * (dropped first if a failed run left it). `cleanup` removes it.
 */
export async function openFreshDatabase(
  kind: BenchDatabaseKind,
  options: { pgUrl: string; name: string; poolSize?: number },
): Promise<{ database: Database; dataDir?: string; cleanup: () => Promise<void> }> {
  if (kind === "embedded") {
    const dir = tempDir(`${options.name}-`);
    const database = await openEmbeddedDatabase(dir, undefined, options.poolSize ? { poolSize: options.poolSize } : {});
    return {
      database,
      dataDir: dir,
      cleanup: async () => {
        await database.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const admin = await openDatabase({ databaseUrl: options.pgUrl, poolSize: 1 });
  await admin.exec(dropDatabaseSql(options.name));
  await admin.exec(createDatabaseSql(options.name));
  const database = await openDatabase({ databaseUrl: adminUrl(options.pgUrl, options.name), poolSize: options.poolSize ?? 10 });
  return {
    database,
    cleanup: async () => {
      await database.close();
      await admin.exec(dropDatabaseSql(options.name));
      await admin.close();
    },
  };
}
