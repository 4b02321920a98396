import path from "node:path";
import { parseArgs } from "node:util";
import { runMigrations } from "~/db/migrate";
import { backupErrorOf, BackupError, restoreBackup, writeBackup } from "../operations/backup";
import type { BACKUP_COMMANDS } from "./cli-commands";
import type { CliTools } from "./cli-tools";
import { loadConfig } from "../config";
import { hasEmbeddedDatabase, openEmbeddedDatabase } from "../database";

/** Runs backup or restore; returns its exit code. */
export async function runBackupCommand(command: (typeof BACKUP_COMMANDS)[number], args: string[], tools: CliTools): Promise<number> {
  try {
    return command === "backup" ? await backup(args, tools) : await restore(args, tools);
  } catch (error) {
    const refusal = backupErrorOf(error);
    if (!refusal) throw error;
    tools.err(JSON.stringify({ error: { code: refusal.code, message: refusal.message } }));
    return 1;
  }
}

async function backup(args: string[], tools: CliTools): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { force: { type: "boolean" } } });
  if (positionals.length !== 1) throw tools.usage("backup needs one FILE to write");
  const config = loadConfig();
  if (config.databaseUrl) {
    throw new BackupError(
      "USE_PG_DUMP",
      "DATABASE_URL is set: back up PostgreSQL with its own tool, for example " +
        'pg_dump --format=custom --file FILE "$DATABASE_URL". oddwire backup copies the embedded database only.',
    );
  }
  const file = path.resolve(positionals[0] as string);
  if (!hasEmbeddedDatabase(config.dataDir)) {
    throw new BackupError("NO_DATABASE", `There is no embedded database in ${config.dataDir}: nothing to back up. Is DATA_DIR right?`);
  }
  const started = performance.now();
  // The site's own server when it runs (a consistent snapshot while it writes), else one started for this command.
  const database = await openEmbeddedDatabase(config.dataDir, undefined, { poolSize: 1 });
  try {
    const result = await writeBackup(database, file, { force: values.force === true });
    tools.out(JSON.stringify({ file, ...result, data_dir: config.dataDir, duration_ms: Math.round(performance.now() - started) }));
  } finally {
    await database.close();
  }
  return 0;
}

async function restore(args: string[], tools: CliTools): Promise<number> {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  if (positionals.length !== 1) throw tools.usage("restore needs one FILE, a backup made by oddwire backup");
  const config = loadConfig();
  if (config.databaseUrl) {
    throw new BackupError(
      "USE_PG_RESTORE",
      "DATABASE_URL is set: restore PostgreSQL with its own tool, for example " +
        'pg_restore --no-owner --dbname "$DATABASE_URL" FILE (into an empty database, from a pg_dump --format=custom file). ' +
        "oddwire restore loads the embedded database only.",
    );
  }
  const file = path.resolve(positionals[0] as string);
  const started = performance.now();
  const database = await openEmbeddedDatabase(config.dataDir, undefined, { poolSize: 1 });
  try {
    await runMigrations(database);
    const { migrations, ...counts } = await restoreBackup(database, file);
    tools.out(JSON.stringify({ restored: true, file, data_dir: config.dataDir, counts, migrations, duration_ms: Math.round(performance.now() - started) }));
  } finally {
    await database.close();
  }
  return 0;
}
