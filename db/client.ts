import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import pg from "pg";
import { lockDataDir } from "./lock";
import { PGliteThread } from "./pglite-thread";
import { schema } from "./schema";

/**
 * The common base of both drivers' databases and of their transactions (a transaction is a
 * PgDatabase too), so a repository helper that takes a Db accepts either.
 */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

type OpenDatabase = {
  db: Db;
  /** Runs raw SQL; for maintenance and tests (migrations, truncation). */
  exec(sqlText: string): Promise<void>;
  close(): Promise<void>;
};

/** An open database with the driver-level handle that migrations and the job queue need. */
export type Database =
  | (OpenDatabase & { kind: "postgres"; pool: pg.Pool; connectionString: string })
  | (OpenDatabase & { kind: "pglite"; pglite: PGliteThread });

export type DatabaseOptions = (
  | {
      databaseUrl: string;
      poolSize?: number;
      /** Told when an idle pooled connection fails (say, the server restarted); the pool replaces it. */
      onIdleError?: (error: Error) => void;
    }
  | {
      dataDir: string | null;
      pgliteDump?: Blob | File;
      lock?: boolean;
      /** postgresql.conf lines, e.g. a small shared_buffers for the many short-lived test instances. */
      postgresqlConf?: string[];
      /** Told once if the database's thread stops while it is open: nothing can use it again in this process. */
      onLost?: (error: Error) => void;
    }
) & {
  /** Told the SQL of every query the Drizzle handle runs (tests count the queries of a page). */
  onQuery?: (sqlText: string) => void;
};

/** Opens the database: PostgreSQL when a URL is given, else PGlite in a data dir (or in memory). */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if ("databaseUrl" in options) {
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
      kind: "postgres",
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

  const dataDir = options.dataDir === null ? null : path.resolve(options.dataDir);
  const release = dataDir !== null && options.lock !== false ? lockDataDir(dataDir) : () => {};
  let client: PGliteThread;
  try {
    // PGlite runs in a thread of its own (decision 019), and is loaded only there: a process on
    // PostgreSQL (each web process of the cluster) never loads it.
    client = await PGliteThread.start({
      ...(dataDir === null ? {} : { dataDir: path.join(dataDir, "pglite") }),
      ...(options.pgliteDump ? { dump: options.pgliteDump } : {}),
      ...(options.postgresqlConf ? { postgresqlConf: options.postgresqlConf } : {}),
      ...(options.onLost ? { onStopped: options.onLost } : {}),
    });
  } catch (error) {
    release();
    throw new Error(`Cannot open the embedded database in ${dataDir ?? "memory"}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const { drizzle: drizzlePglite } = await import("drizzle-orm/pglite");
  let closed = false;
  return {
    kind: "pglite",
    pglite: client,
    // Drizzle's PGlite driver uses query, exec and transaction, which the thread's client has.
    db: drizzlePglite(client as unknown as PGlite, { schema, logger: queryLogger(options.onQuery) }),
    exec: async (sqlText) => {
      await client.exec(sqlText);
    },
    close: async () => {
      if (closed) return;
      closed = true;
      try {
        await client.close();
      } finally {
        release();
      }
    },
  };
}

/** The embedded database's client, for dumping a migrated template in tests. */
export function pgliteOf(database: Database): PGliteThread {
  if (database.kind !== "pglite") throw new Error("not a PGlite database");
  return database.pglite;
}

function queryLogger(onQuery: ((sqlText: string) => void) | undefined) {
  return onQuery ? { logQuery: (query: string) => onQuery(query) } : undefined;
}
