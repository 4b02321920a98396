import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "~/db/client";
import { startEmbeddedServer } from "~/db/embedded/server";
import { runMigrations } from "~/db/migrate";
import { adminUrl, createDatabaseSql, dropDatabaseSql } from "~/db/testing/postgres-admin";

declare module "vitest" {
  export interface ProvidedContext {
    /** The server every test file makes its database on, and the migrated template it copies. */
    testDatabase: { url: string; template: string };
  }
}

/**
 * One PostgreSQL server per test run: TEST_DATABASE_URL's, or else the product's own embedded one
 * in a temporary DATA_DIR. A migrated template database is made once; each test file copies it.
 */
export default async function setup(project: TestProject) {
  // Vitest runs a global setup for the root project and again for each project that inherits it
  // (vitest.config.ts's projects extend the root config). The root's runs on every run, whichever
  // projects are chosen, and what it provides every project reads: the work is done there alone.
  if (!project.isRootProject()) return;
  // Commands the tests start as processes run the server bundle: made once here, not by each at once.
  const { ensureServerBundle } = (await import("../server/processes/bundle.mjs" as string)) as { ensureServerBundle(): Promise<number> };
  await ensureServerBundle();

  let url = process.env.TEST_DATABASE_URL;
  let stopServer = async () => {};
  if (!url) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "oddwire-test-db-"));
    // mkdtemp makes it owner-only: as root, the database's own user must be able to enter it.
    chmodSync(dataDir, 0o755);
    // Nothing here must outlive a crash: durability traded for speed.
    const server = await startEmbeddedServer({ dataDir, role: "serve", settings: { fsync: "off", synchronous_commit: "off", full_page_writes: "off" } });
    url = server.url;
    stopServer = async () => {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    };
  }
  const template = `oddwire_tpl_${process.pid}`;
  try {
    await adminQuery(url, [dropDatabaseSql(template), createDatabaseSql(template)]);
    const database = await openDatabase({ databaseUrl: adminUrl(url, template), poolSize: 1 });
    await runMigrations(database);
    await database.close();
  } catch (error) {
    await stopServer();
    throw error;
  }
  project.provide("testDatabase", { url, template });
  const serverUrl = url;
  return async () => {
    await adminQuery(serverUrl, [dropDatabaseSql(template)]).catch(() => {});
    await stopServer();
  };
}

async function adminQuery(url: string, statements: string[]) {
  const admin = await openDatabase({ databaseUrl: url, poolSize: 1 });
  try {
    for (const statement of statements) await admin.exec(statement);
  } finally {
    await admin.close();
  }
}
