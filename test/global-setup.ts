import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase, pgliteOf } from "~/db/client";
import { runMigrations } from "~/db/migrate";
import { adminUrl, createDatabaseSql, dropDatabaseSql } from "~/db/testing/postgres-admin";

declare module "vitest" {
  export interface ProvidedContext {
    /** Where the migrated template lives: a PGlite dump file, or a PostgreSQL template database. */
    testDatabase: { kind: "pglite"; dumpFile: string } | { kind: "postgres"; url: string; template: string };
  }
}

/** Builds and migrates one template database per test run; each test file then clones it. */
export default async function setup(project: TestProject) {
  // Commands the tests start as processes run the server bundle: made once here, not by each at once.
  const { ensureServerBundle } = (await import("../server/bundle.mjs" as string)) as { ensureServerBundle(): Promise<number> };
  await ensureServerBundle();
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const template = `oddwire_tpl_${process.pid}`;
    await adminQuery(url, [dropDatabaseSql(template), createDatabaseSql(template)]);
    const database = await openDatabase({ databaseUrl: adminUrl(url, template), poolSize: 1 });
    await runMigrations(database);
    await database.close();
    project.provide("testDatabase", { kind: "postgres", url, template });
    return async () => {
      await adminQuery(url, [dropDatabaseSql(template)]);
    };
  }

  const dir = mkdtempSync(path.join(os.tmpdir(), "oddwire-test-"));
  const database = await openDatabase({ dataDir: null });
  await runMigrations(database);
  const dump = await pgliteOf(database).dumpDataDir("none");
  await database.close();
  const dumpFile = path.join(dir, "template.tar");
  writeFileSync(dumpFile, Buffer.from(await dump.arrayBuffer()));
  project.provide("testDatabase", { kind: "pglite", dumpFile });
  return () => rmSync(dir, { recursive: true, force: true });
}

async function adminQuery(url: string, statements: string[]) {
  const admin = await openDatabase({ databaseUrl: url, poolSize: 1 });
  try {
    for (const statement of statements) await admin.exec(statement);
  } finally {
    await admin.close();
  }
}
