import { openDatabase, type Database } from "~/db/client";
import type { Config } from "./config";
import type { Logger } from "./logger";

/** Opens the database the configuration names: PostgreSQL with DATABASE_URL, else PGlite in DATA_DIR. */
export function openConfiguredDatabase(config: Config, logger?: Logger): Promise<Database> {
  if (!config.databaseUrl) return openDatabase({ dataDir: config.dataDir });
  return openDatabase({
    databaseUrl: config.databaseUrl,
    ...(logger
      ? { onIdleError: (error: Error) => logger.warn({ err: error }, "an idle PostgreSQL connection failed; the pool replaces it") }
      : {}),
  });
}
