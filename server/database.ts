import { openDatabase, type Database } from "~/db/client";
import { existsSync } from "node:fs";
import path from "node:path";
import { carryOverPglite, PGLITE_DIR } from "~/db/embedded/carry-over";
import { clusterExists } from "~/db/embedded/layout";
import { startEmbeddedServer } from "~/db/embedded/server";
import { withFileLock } from "~/db/embedded/start-lock";
import { runMigrations } from "~/db/migrate";
import { errorMessage } from "~/lib/error-message";
import type { Config } from "./config";
import type { Logger } from "./logger";

// Failures that say PostgreSQL is not there yet (down, restarting, still starting up), worth waiting
// for; a wrong password or a missing database is not, and fails at once.
const TRANSIENT_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "ENOTFOUND", "57P03", "53300"]);

function isTransient(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && TRANSIENT_CODES.has(code)) return true;
    const inner = (current as { errors?: unknown[] }).errors?.[0]; // AggregateError of a multi-address connect
    if (inner && isTransient(inner)) return true;
  }
  return false;
}

export type OpenOptions = {
  /** Keep trying an unreachable PostgreSQL this long (the server); 0 fails at once (the CLI). */
  retryForMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /**
   * Without DATABASE_URL, how this process uses the embedded server (db/embedded/server.ts): "serve"
   * owns and watches it; a "command" (the CLI, the default) joins the running one or starts it for
   * its own run. Closing the database leaves the server to whoever still uses it.
   */
  role?: "serve" | "command";
  /** Sizes the pool (a web process of the cluster, the CLI). */
  poolSize?: number;
};

/** How long the server waits for PostgreSQL at start-up before giving up. */
export const START_RETRY_MS = 5 * 60_000;

/**
 * Opens the database the configuration names: the PostgreSQL server at DATABASE_URL, else the
 * embedded one the product runs in DATA_DIR (started when it is not running). An unreachable
 * DATABASE_URL is tried again with back-off (0.5 s doubling to 10 s) for `retryForMs`, each wait said
 * in the log.
 */
export async function openConfiguredDatabase(config: Pick<Config, "databaseUrl" | "dataDir">, logger?: Logger, options: OpenOptions = {}): Promise<Database> {
  if (!config.databaseUrl) return openEmbeddedDatabase(config.dataDir, logger, options);
  return openExternal(config.databaseUrl, logger, options);
}

/** Whether DATA_DIR holds an embedded database (this release's cluster, or an earlier release's files to carry over). */
export function hasEmbeddedDatabase(dataDir: string): boolean {
  return clusterExists(dataDir) || existsSync(path.join(dataDir, PGLITE_DIR, "PG_VERSION"));
}

/** The embedded server's database for DATA_DIR; closing it leaves the server to whoever still uses it. */
export async function openEmbeddedDatabase(dataDir: string, logger?: Logger, options: Pick<OpenOptions, "role" | "poolSize"> = {}): Promise<Database> {
  const role = options.role ?? "command";
  // A command says only what went wrong with the server; its starts and stops are the site's to log.
  const serverLogger = logger && role === "command" ? { info: () => {}, warn: (fields: object, message: string) => logger.warn(fields, message) } : logger;
  const server = await startEmbeddedServer({ dataDir, role, ...(serverLogger ? { logger: serverLogger } : {}) });
  try {
    const database = await openDatabase({
      databaseUrl: server.url,
      ...(options.poolSize ? { poolSize: options.poolSize } : {}),
      ...(logger ? { onIdleError: (error: Error) => logger.warn({ err: error }, "an idle database connection failed; the pool replaces it") } : {}),
    });
    const opened: Database = {
      ...database,
      close: async () => {
        try {
          await database.close();
        } finally {
          await server.stop();
        }
      },
    };
    try {
      await carryOverEarlierRelease(dataDir, opened, logger);
    } catch (error) {
      await opened.close();
      throw error;
    }
    return opened;
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/**
 * A DATA_DIR of an earlier release keeps its database in DATA_DIR/pglite: on the first start its
 * every table comes over into the embedded server (migrated first), the old files are moved aside,
 * and the log says so (db/embedded/carry-over.ts). One process at a time does it.
 */
async function carryOverEarlierRelease(dataDir: string, database: Database, logger: Logger | undefined): Promise<void> {
  if (!existsSync(path.join(dataDir, PGLITE_DIR, "PG_VERSION"))) return;
  await withFileLock(path.join(dataDir, "carry-over.lock"), async () => {
    if (!existsSync(path.join(dataDir, PGLITE_DIR, "PG_VERSION"))) return;
    await runMigrations(database);
    await carryOverPglite({ dataDir, target: database, logger: logger ?? { info: (fields, message) => console.error(message, fields), warn: (fields, message) => console.error(message, fields) } });
  }, 30 * 60_000);
}

async function openExternal(databaseUrl: string, logger: Logger | undefined, options: OpenOptions): Promise<Database> {
  const open = () =>
    openDatabase({
      databaseUrl,
      ...(options.poolSize ? { poolSize: options.poolSize } : {}),
      ...(logger
        ? { onIdleError: (error: Error) => logger.warn({ err: error }, "an idle PostgreSQL connection failed; the pool replaces it") }
        : {}),
    });
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const deadline = Date.now() + (options.retryForMs ?? 0);
  for (let attempt = 1, waitMs = 500; ; attempt++, waitMs = Math.min(waitMs * 2, 10_000)) {
    try {
      const database = await open();
      if (attempt > 1) logger?.info({ attempts: attempt }, "PostgreSQL is reachable");
      return database;
    } catch (error) {
      if (!isTransient(error) || Date.now() + waitMs > deadline) throw error;
      logger?.warn({ err: errorMessage(error), attempt, retryInMs: waitMs }, "PostgreSQL is not reachable yet; trying again");
      await sleep(waitMs);
    }
  }
}
