import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import pg from "pg";
import { lockDataDir } from "./lock";
import { schema } from "./schema";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type Database = {
  kind: "pglite" | "postgres";
  db: Db;
  /** Runs raw SQL; for maintenance and tests (migrations, truncation). */
  exec(sqlText: string): Promise<void>;
  close(): Promise<void>;
};

export type DatabaseOptions =
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
    };

/** Opens the database: PostgreSQL when a URL is given, else PGlite in a data dir (or in memory). */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if ("databaseUrl" in options) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    // Without a listener an idle connection's error would crash the process.
    pool.on("error", (error) => (options.onIdleError ?? ((e) => console.error("idle PostgreSQL connection failed:", e.message)))(error));
    // Fail fast with the server's own message instead of on the first query.
    const client = await pool.connect().catch(async (error: unknown) => {
      await pool.end();
      throw new Error(`Cannot connect to PostgreSQL: ${(error as Error).message}`, { cause: error });
    });
    client.release();
    return {
      kind: "postgres",
      db: drizzlePg(pool, { schema }) as unknown as Db,
      exec: async (sqlText) => {
        await pool.query(sqlText);
      },
      close: () => pool.end(),
    };
  }

  const dataDir = options.dataDir === null ? null : path.resolve(options.dataDir);
  const release = dataDir !== null && options.lock !== false ? lockDataDir(dataDir) : () => {};
  let client: PGlite;
  try {
    client = await PGlite.create({
      ...(dataDir === null ? {} : { dataDir: path.join(dataDir, "pglite") }),
      ...(options.pgliteDump ? { loadDataDir: options.pgliteDump } : {}),
      ...(options.postgresqlConf ? { postgresqlconf: options.postgresqlConf } : {}),
      extensions: { pg_trgm },
    });
  } catch (error) {
    release();
    throw new Error(`Cannot open the embedded database in ${dataDir ?? "memory"}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  let closed = false;
  return {
    kind: "pglite",
    db: drizzlePglite(client, { schema }) as unknown as Db,
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

/** The underlying PGlite client, for dumping a migrated template in tests. */
export function pgliteOf(database: Database): PGlite {
  const client = (database.db as unknown as { $client: PGlite }).$client;
  if (database.kind !== "pglite" || !client) throw new Error("not a PGlite database");
  return client;
}
