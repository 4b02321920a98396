import { rmSync } from "node:fs";
import { openDatabase, type Database } from "~/db/client";
import { openEmbeddedDatabase } from "~/server/database";
import { tempDir } from "~/test/temp-dir";
import { adminUrl, createDatabaseSql, dropDatabaseSql } from "~/db/testing/postgres-admin";
import type { BenchDatabaseKind } from "./databases";

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
