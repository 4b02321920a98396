import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import pg from "pg";
import { schema } from "./schema";

/**
 * The database and its transactions (a transaction is a PgDatabase too), so that a repository
 * helper that takes a Db accepts either.
 */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** An open database: the Drizzle handle, and the pool that migrations and the job queue use. */
export type Database = {
  db: Db;
  pool: pg.Pool;
  connectionString: string;
  /** Runs raw SQL; for maintenance and tests (migrations, truncation). */
  exec(sqlText: string): Promise<void>;
  close(): Promise<void>;
};

export type DatabaseOptions = {
  databaseUrl: string;
  poolSize?: number;
  /** Told when an idle pooled connection fails (say, the server restarted); the pool replaces it. */
  onIdleError?: (error: Error) => void;
  /** Told the SQL of every query the Drizzle handle runs (tests count the queries of a page). */
  onQuery?: (sqlText: string) => void;
};

/** Opens a pool on the PostgreSQL server at the URL, failing at once with the server's words when it cannot connect. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
  // Without a listener an idle connection's error would crash the process.
  pool.on("error", (error) => (options.onIdleError ?? ((e) => console.error("idle PostgreSQL connection failed:", e.message)))(error));
  // pool.end() resolves before its connections have closed; close() waits for them, so that dropping
  // the database right after (tests) or exiting cannot cut a connection that is still saying goodbye.
  let connections = 0;
  let allClosed: (() => void) | undefined;
  pool.on("connect", () => connections++);
  pool.on("remove", () => {
    if (--connections === 0) allClosed?.();
  });
  // Fail fast with the server's own message instead of on the first query.
  const client = await pool.connect().catch(async (error: unknown) => {
    await pool.end();
    throw new Error(`Cannot connect to PostgreSQL: ${(error as Error).message}`, { cause: error });
  });
  client.release();
  return {
    pool,
    connectionString: options.databaseUrl,
    db: drizzlePg(pool, { schema, logger: queryLogger(options.onQuery) }),
    exec: async (sqlText) => {
      await pool.query(sqlText);
    },
    close: async () => {
      if (pool.ended) return;
      const closed = connections === 0 ? Promise.resolve() : new Promise<void>((resolve) => (allClosed = resolve));
      await pool.end();
      await closed;
    },
  };
}

function queryLogger(onQuery: ((sqlText: string) => void) | undefined) {
  return onQuery ? { logQuery: (query: string) => onQuery(query) } : undefined;
}
