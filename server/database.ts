import { openDatabase, type Database } from "~/db/client";
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
  /** Told if the embedded database's thread stops while it is open (PGlite only: PostgreSQL's pool reconnects). */
  onLost?: (error: Error) => void;
};

/** How long the server waits for PostgreSQL at start-up before giving up. */
export const START_RETRY_MS = 5 * 60_000;

/**
 * Opens the database the configuration names: PostgreSQL with DATABASE_URL, else PGlite in DATA_DIR.
 * An unreachable PostgreSQL is tried again with back-off (0.5 s doubling to 10 s) for `retryForMs`,
 * each wait said in the log.
 */
export async function openConfiguredDatabase(config: Config, logger?: Logger, options: OpenOptions = {}): Promise<Database> {
  if (!config.databaseUrl) return openDatabase({ dataDir: config.dataDir, ...(options.onLost ? { onLost: options.onLost } : {}) });
  const databaseUrl = config.databaseUrl;
  const open = () =>
    openDatabase({
      databaseUrl,
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
