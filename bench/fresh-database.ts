import { rmSync } from "node:fs";
import { openDatabase, type Database } from "~/db/client";
import { openEmbeddedDatabase } from "~/server/database";
import { tempDir } from "~/test/temp-dir";
import { adminUrl, createDatabaseSql, dropDatabaseSql } from "~/db/testing/postgres-admin";

/**
 * An empty database for one benchmark run: the embedded server in a temporary data dir, or a PostgreSQL database
 * `name` created afresh on `pgUrl` (dropped first if a failed run left it). `cleanup` removes it.
 */
export async function openFreshDatabase(
  kind: string,
  options: { pgUrl: string; name: string; poolSize?: number },
): Promise<{ database: Database; cleanup: () => Promise<void> }> {
  if (kind === "pglite" || kind === "embedded") {
    const dir = tempDir(`${options.name}-`);
    const database = await openEmbeddedDatabase(dir);
    return {
      database,
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
