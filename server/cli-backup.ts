import { existsSync, statSync } from "node:fs";
import { open, readFile, rename, rm } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { BackupError, requestServerBackup, restoreDataDir, snapshotDataDir } from "./backup";
import type { BACKUP_COMMANDS } from "./cli-commands";
import type { CliTools } from "./cli-tools";
import { loadConfig, type Config } from "./config";



/** Runs backup or restore; returns its exit code. */
export async function runBackupCommand(command: (typeof BACKUP_COMMANDS)[number], args: string[], tools: CliTools): Promise<number> {
  try {
    return command === "backup" ? await backup(args, tools) : await restore(args, tools);
  } catch (error) {
    if (!(error instanceof BackupError)) throw error;
    tools.err(JSON.stringify({ error: { code: error.code, message: error.message } }));
    return 1;
  }
}

async function backup(args: string[], tools: CliTools): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { force: { type: "boolean" } } });
  if (positionals.length !== 1) throw tools.usage("backup needs one FILE to write");
  const config = backupConfig();
  if (config.databaseUrl) {
    throw new BackupError(
      "USE_PG_DUMP",
      "DATABASE_URL is set: back up PostgreSQL with its own tool, for example " +
        'pg_dump --format=custom --file FILE "$DATABASE_URL". oddwire backup copies the embedded database only.',
    );
  }
  const file = path.resolve(positionals[0] as string);
  if (existsSync(file) && values.force !== true) {
    throw new BackupError("FILE_EXISTS", `${file} already exists: choose another name, or pass --force to replace it.`);
  }
  const directory = path.dirname(file);
  if (!existsSync(directory) || !statSync(directory).isDirectory()) {
    throw new BackupError("NO_SUCH_DIRECTORY", `The directory ${directory} does not exist: create it first.`);
  }
  const started = performance.now();
  const fromServer = await requestServerBackup(config.dataDir);
  const bytes = fromServer?.bytes ?? (await snapshotDataDir(config.dataDir));
  await writeAtomically(file, bytes);
  tools.out(
    JSON.stringify({
      file,
      bytes: bytes.length,
      data_dir: config.dataDir,
      taken_by: fromServer ? "server" : "cli",
      server_pid: fromServer?.pid ?? null,
      duration_ms: Math.round(performance.now() - started),
    }),
  );
  return 0;
}

async function restore(args: string[], tools: CliTools): Promise<number> {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  if (positionals.length !== 1) throw tools.usage("restore needs one FILE, a backup made by oddwire backup");
  const config = backupConfig();
  if (config.databaseUrl) {
    throw new BackupError(
      "USE_PG_RESTORE",
      "DATABASE_URL is set: restore PostgreSQL with its own tool, for example " +
        'pg_restore --no-owner --dbname "$DATABASE_URL" FILE (into an empty database, from a pg_dump --format=custom file). ' +
        "oddwire restore loads the embedded database only.",
    );
  }
  const file = path.resolve(positionals[0] as string);
  const backupBytes = await readFile(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") throw new BackupError("NO_SUCH_FILE", `${file} does not exist.`);
    throw error;
  });
  const started = performance.now();
  const { migrations, ...counts } = await restoreDataDir(config.dataDir, backupBytes);
  tools.out(
    JSON.stringify({
      restored: true,
      file,
      bytes: backupBytes.length,
      data_dir: config.dataDir,
      counts,
      migrations,
      duration_ms: Math.round(performance.now() - started),
    }),
  );
  return 0;
}

// Backup and restore sign nothing. Without AUTH_SECRET, loading the configuration would write a new
// secret into DATA_DIR (decision 001), which restore needs empty and backup must not change.
function backupConfig(): Config {
  return loadConfig({ ...process.env, AUTH_SECRET: process.env.AUTH_SECRET || "not-used-by-backup-or-restore-000000" });
}

// The backup holds password hashes and sessions: owner-only, and never a half-written file under FILE's name.
async function writeAtomically(file: string, bytes: Uint8Array): Promise<void> {
  const partial = `${file}.${process.pid}.partial`;
  try {
    const handle = await open(partial, "wx", 0o600);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}
