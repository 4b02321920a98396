import { openDatabase, type Database } from "~/db/client";
import type { Config } from "./config";

/** Opens the database the configuration names: PostgreSQL with DATABASE_URL, else PGlite in DATA_DIR. */
export function openConfiguredDatabase(config: Config): Promise<Database> {
  return config.databaseUrl ? openDatabase({ databaseUrl: config.databaseUrl }) : openDatabase({ dataDir: config.dataDir });
}
