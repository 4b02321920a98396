import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, inject } from "vitest";
import { openDatabase, type Database, type Db } from "../client";
import { createRepos, type Repos } from "../repos";
import { adminUrl, createDatabaseSql, dropDatabaseSql } from "./postgres-admin";

// Every table of ours, emptied between tests; the migrations table lives in the drizzle schema.
const TRUNCATE = `
  DO $$ DECLARE names text;
  BEGIN
    SELECT string_agg(format('%I.%I', schemaname, tablename), ', ') INTO names
      FROM pg_tables WHERE schemaname = 'public';
    IF names IS NOT NULL THEN EXECUTE 'TRUNCATE ' || names || ' RESTART IDENTITY CASCADE'; END IF;
  END $$;`;

export type TestDatabase = {
  readonly database: Database;
  readonly db: Db;
  readonly repos: Repos;
  /** Runs `work` and returns the SQL of every query it made through the Drizzle handle. */
  queriesOf(work: () => Promise<unknown>): Promise<string[]>;
  /** Another handle on the same database, as a second process would have: a pool of its own. Closed after the file's tests. */
  openAnother(): Promise<Database>;
};

/** Opens a fresh copy of the migrated template database for one test file. */
export async function openTestDatabase(
  onQuery?: (sqlText: string) => void,
): Promise<{ database: Database; openAnother: () => Promise<Database>; dispose: () => Promise<void> }> {
  const spec = inject("testDatabase");
  const name = `oddwire_t_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = await openDatabase({ databaseUrl: spec.url, poolSize: 1 });
  await admin.exec(createDatabaseSql(name, spec.template));
  const database = await openDatabase({ databaseUrl: adminUrl(spec.url, name), poolSize: 4, onQuery });
  const others: Database[] = [];
  return {
    database,
    openAnother: async () => {
      const other = await openDatabase({ databaseUrl: adminUrl(spec.url, name), poolSize: 4 });
      others.push(other);
      return other;
    },
    dispose: async () => {
      for (const other of others) await other.close();
      await database.close();
      await admin.exec(dropDatabaseSql(name));
      await admin.close();
    },
  };
}

/**
 * Gives the calling test file its own migrated database (on the test run's embedded server, or on
 * TEST_DATABASE_URL's), emptied before each test.
 */
export function testDatabaseForFile(): TestDatabase {
  let current: Awaited<ReturnType<typeof openTestDatabase>> | undefined;
  let repos: Repos | undefined;
  let recording: string[] | null = null;
  beforeAll(async () => {
    current = await openTestDatabase((sqlText) => recording?.push(sqlText));
    repos = createRepos(current.database.db);
  });
  beforeEach(async () => {
    await current?.database.exec(TRUNCATE);
  });
  afterAll(async () => {
    await current?.dispose();
  });
  const need = () => {
    if (!current || !repos) throw new Error("testDatabaseForFile(): the database is opened in beforeAll");
    return { database: current.database, repos };
  };
  return {
    get database() {
      return need().database;
    },
    get db() {
      return need().database.db;
    },
    get repos() {
      return need().repos;
    },
    openAnother() {
      if (!current) throw new Error("testDatabaseForFile(): the database is opened in beforeAll");
      return current.openAnother();
    },
    async queriesOf(work) {
      const seen: string[] = [];
      recording = seen;
      try {
        await work();
      } finally {
        recording = null;
      }
      return seen;
    },
  };
}
