import { existsSync, readdirSync, rmdirSync, rmSync } from "node:fs";
import { chmod, rm } from "node:fs/promises";
import { createConnection, createServer, type Socket } from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { openDatabase, type Database } from "~/db/client";
import { DataDirInUseError } from "~/db/lock";
import { errorMessage } from "~/lib/error-message";
import type { Logger } from "./logger";

// Backups of the embedded database (decision 012). A backup is PGlite's own tarball of its data
// directory, gzipped: what `loadDataDir` loads. The process that holds DATA_DIR takes it: the
// running server on request over a socket in DATA_DIR, or this command when no process holds it.

/** The server's backup socket, beside the data it gives out (owner-only, like the data). */
export const BACKUP_SOCKET = "backup.sock";
// db/client.ts keeps the database in DATA_DIR/pglite; PG_VERSION is there once it exists.
const DATABASE_DIR = "pglite";
const DATABASE_MARKER = path.join(DATABASE_DIR, "PG_VERSION");
// A socket's path is at most 104 bytes on macOS and 108 on Linux, terminator included.
const MAX_SOCKET_PATH = 103;
const REQUEST = "backup";

/** A refusal or failure of backup or restore, with the code the CLI prints. */
export class BackupError extends Error {
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "BackupError";
  }
}

/** The backup socket's path for a data dir, or null when the path is too long for a socket. */
export function backupSocketPath(dataDir: string): string | null {
  const socketPath = path.join(path.resolve(dataDir), BACKUP_SOCKET);
  return Buffer.byteLength(socketPath) <= MAX_SOCKET_PATH ? socketPath : null;
}

/**
 * A consistent snapshot of an open embedded database as a gzipped tarball. PGlite copies its files
 * while it holds its query lock, and it is one single-threaded backend with no background writer:
 * nothing changes them during the copy. Like a crash at that instant, loading it replays the WAL:
 * every committed transaction is in it, one still open is rolled back. It is compressed after the
 * lock is released, so the server's queries wait only for the copy.
 */
export async function snapshotDatabase(database: Database): Promise<{ bytes: Buffer; lockedMs: number }> {
  if (database.kind !== "pglite") throw new Error("only the embedded database is backed up by Oddwire; use pg_dump on PostgreSQL");
  const started = performance.now();
  const tarball = await database.pglite.dumpDataDir("none");
  const lockedMs = Math.round(performance.now() - started);
  return { bytes: await promisify(gzip)(new Uint8Array(await tarball.arrayBuffer())), lockedMs };
}

export type BackupEndpoint = { socketPath: string | null; close(): Promise<void> };

/**
 * Lets `oddwire backup` take a snapshot from this running server: listens on DATA_DIR/backup.sock,
 * which only the data's owner can connect to. One snapshot at a time. Nothing on PostgreSQL.
 */
export async function listenForBackups(options: { database: Database; dataDir: string; logger: Logger }): Promise<BackupEndpoint> {
  const { database, logger } = options;
  if (database.kind !== "pglite") return { socketPath: null, close: async () => {} };
  const socketPath = backupSocketPath(options.dataDir);
  if (socketPath === null) {
    logger.warn(
      { dataDir: options.dataDir },
      "DATA_DIR's path is too long for the backup socket: `oddwire backup` cannot reach this server; stop it to take a backup",
    );
    return { socketPath: null, close: async () => {} };
  }
  // This process holds DATA_DIR's lock, so a socket file left there is a dead server's.
  rmSync(socketPath, { force: true });

  let queue: Promise<unknown> = Promise.resolve();
  const connections = new Set<Socket>();
  const server = createServer((socket) => {
    connections.add(socket);
    socket.once("close", () => connections.delete(socket));
    socket.on("error", (error) => logger.warn({ err: error }, "a backup client went away"));
    void readRequest(socket).then(async (request) => {
      if (request !== REQUEST) {
        socket.end(`${JSON.stringify({ ok: false, message: "unknown request" })}\n`);
        return;
      }
      const started = performance.now();
      const taken = queue.then(() => snapshotDatabase(database));
      queue = taken.catch(() => {});
      try {
        const { bytes, lockedMs } = await taken;
        const header = { ok: true, bytes: bytes.length, pid: process.pid, taken_at: new Date().toISOString() };
        // lockedMs: how long queries waited for the copy.
        logger.info({ bytes: bytes.length, ms: Math.round(performance.now() - started), lockedMs }, "took a backup of the embedded database");
        socket.write(`${JSON.stringify(header)}\n`);
        socket.end(bytes);
      } catch (error) {
        logger.error({ err: error }, "a backup of the embedded database failed");
        socket.end(`${JSON.stringify({ ok: false, message: errorMessage(error) })}\n`);
      }
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(socketPath, () => {
        server.off("error", reject);
        resolve();
      });
    });
    await chmod(socketPath, 0o600);
  } catch (error) {
    // Serving matters more than backups taken while serving: say so, and go on without the socket.
    logger.warn({ err: error, socketPath }, "the backup socket could not be opened: `oddwire backup` cannot reach this server; stop it to take a backup");
    server.close();
    return { socketPath: null, close: async () => {} };
  }
  server.on("error", (error) => logger.error({ err: error }, "the backup socket failed"));

  return {
    socketPath,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // A snapshot under way finishes before the database is closed; a client that does not read its
      // answer gets five seconds, then is cut off (it reports the backup as cut short).
      await queue;
      const grace = setTimeout(() => connections.forEach((socket) => socket.destroy()), 5_000);
      await closed;
      clearTimeout(grace);
      await rm(socketPath, { force: true });
    },
  };
}

// The request line: at most a few bytes, then a newline.
function readRequest(socket: Socket): Promise<string | null> {
  return new Promise((resolve) => {
    let text = "";
    const onData = (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const end = text.indexOf("\n");
      if (end >= 0 || text.length > 64) {
        socket.off("data", onData);
        resolve(end >= 0 ? text.slice(0, end).trim() : null);
      }
    };
    socket.on("data", onData);
    socket.once("end", () => resolve(null));
    socket.once("error", () => resolve(null));
  });
}

/**
 * Asks the server holding DATA_DIR for a snapshot. Null when no server listens there (no socket,
 * or one left by a server that died); the server's failure is thrown.
 */
export async function requestServerBackup(dataDir: string): Promise<{ bytes: Buffer; pid: number } | null> {
  const socketPath = backupSocketPath(dataDir);
  if (socketPath === null || !existsSync(socketPath)) return null;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let connected = false;
    const socket = createConnection(socketPath, () => {
      connected = true;
      socket.write(`${REQUEST}\n`);
    });
    // A large database takes a while to copy, but a server that sends nothing for 10 minutes is stuck.
    socket.setTimeout(600_000, () => socket.destroy(new Error("the server sent nothing for 10 minutes")));
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.once("error", (error: NodeJS.ErrnoException) => {
      if (!connected && ["ENOENT", "ECONNREFUSED", "ENOTSOCK"].includes(error.code ?? "")) resolve(null);
      else reject(new BackupError("BACKUP_FAILED", `The backup from the running server failed: ${error.message}`, { cause: error }));
    });
    socket.once("end", () => {
      const all = Buffer.concat(chunks);
      const end = all.indexOf(0x0a);
      let header: { ok?: boolean; bytes?: number; pid?: number; message?: string };
      try {
        header = JSON.parse(all.subarray(0, end < 0 ? all.length : end).toString("utf8")) as typeof header;
      } catch {
        reject(new BackupError("BACKUP_FAILED", "The running server's answer to the backup request was not understood."));
        return;
      }
      if (header.ok !== true) {
        reject(new BackupError("BACKUP_FAILED", `The running server could not take the backup: ${header.message ?? "no reason given"}`));
        return;
      }
      const bytes = all.subarray(end + 1);
      if (bytes.length !== header.bytes) {
        reject(new BackupError("BACKUP_FAILED", `The backup from the running server was cut short (${bytes.length} of ${header.bytes} bytes): try again.`));
        return;
      }
      resolve({ bytes, pid: header.pid ?? 0 });
    });
  });
}

/** Opens DATA_DIR (no process may hold it) and takes a snapshot of its database, unchanged. */
export async function snapshotDataDir(dataDir: string): Promise<Buffer> {
  if (!existsSync(path.join(dataDir, DATABASE_MARKER))) {
    throw new BackupError("NO_DATABASE", `There is no embedded database in ${dataDir}: nothing to back up. Is DATA_DIR right?`);
  }
  let database: Database;
  try {
    database = await openDatabase({ dataDir });
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    const why =
      backupSocketPath(dataDir) === null
        ? `its path is too long for the backup socket (at most ${MAX_SOCKET_PATH} bytes with /${BACKUP_SOCKET})`
        : "it offers no backup socket: it is another oddwire command, or a server that could not open the socket (see its log)";
    throw new BackupError(
      "DATA_DIR_IN_USE",
      `${dataDir} is held by another Oddwire process (pid ${error.pid}), and ${why}. ` +
        "The embedded database admits one process at a time, and a copy of its files taken while another process writes them is not consistent: " +
        "let that process finish or stop it, then run backup again.",
      { cause: error },
    );
  }
  try {
    return (await snapshotDatabase(database)).bytes;
  } finally {
    await database.close();
  }
}

export type RestoreResult = { categories: number; stories: number; sources: number; users: number; migrations: number };

/**
 * Loads a backup into an empty (or new) DATA_DIR and checks that it is an Oddwire database;
 * on any failure the directory is left as empty as it was found.
 */
export async function restoreDataDir(dataDir: string, backup: Uint8Array): Promise<RestoreResult> {
  const existed = existsSync(dataDir);
  const entries = existed ? readdirSync(dataDir) : [];
  if (entries.length > 0) {
    const shown = entries.slice(0, 5).join(", ") + (entries.length > 5 ? `, and ${entries.length - 5} more` : "");
    throw new BackupError(
      "DATA_DIR_NOT_EMPTY",
      `${dataDir} is not empty (it holds ${shown}). Restore writes only into an empty or new directory, so nothing is overwritten: ` +
        "point DATA_DIR at a new directory, or move this one aside first.",
    );
  }
  const gzipped = backup[0] === 0x1f && backup[1] === 0x8b;
  const tar = backup.length > 262 && Buffer.from(backup.subarray(257, 262)).toString("latin1") === "ustar";
  if (!gzipped && !tar) throw new BackupError("NOT_A_BACKUP", "The file is not an Oddwire backup (neither gzip nor tar).");

  // Removes only what the restore wrote (the lock goes when the database is closed).
  const leaveEmpty = () => {
    rmSync(path.join(dataDir, DATABASE_DIR), { recursive: true, force: true });
    if (!existed && existsSync(dataDir) && readdirSync(dataDir).length === 0) rmdirSync(dataDir);
  };
  let database: Database;
  try {
    database = await openDatabase({
      dataDir,
      pgliteDump: new Blob([new Uint8Array(backup)], { type: gzipped ? "application/gzip" : "application/x-tar" }),
    });
  } catch (error) {
    // Another process took the directory in the meantime: it is theirs now, so leave it alone.
    if (error instanceof DataDirInUseError) throw error;
    leaveEmpty();
    throw new BackupError("NOT_A_BACKUP", `The file could not be loaded as an Oddwire backup: ${errorMessage(error)}`, { cause: error });
  }
  let counts: RestoreResult | undefined;
  let failure: unknown;
  try {
    counts = await checkRestored(database);
  } catch (error) {
    failure = error;
  } finally {
    await database.close();
  }
  if (counts === undefined) {
    leaveEmpty();
    throw failure;
  }
  return counts;
}

// What a restored database holds, once it is known to be Oddwire's.
async function checkRestored(database: Database): Promise<RestoreResult> {
  if (database.kind !== "pglite") throw new Error("restore opens the embedded database only");
  const { rows } = await database.pglite.query<{ oddwire: boolean }>(
    "SELECT to_regclass('public.stories') IS NOT NULL AND to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS oddwire",
  );
  if (rows[0]?.oddwire !== true) {
    throw new BackupError("NOT_A_BACKUP", "The file is a database backup, but not of an Oddwire database (it has no stories and no migrations).");
  }
  const counts = await database.pglite.query<RestoreResult>(
    `SELECT (SELECT count(*)::int FROM categories) AS categories, (SELECT count(*)::int FROM stories) AS stories,
            (SELECT count(*)::int FROM sources) AS sources, (SELECT count(*)::int FROM users) AS users,
            (SELECT count(*)::int FROM drizzle.__drizzle_migrations) AS migrations`,
  );
  return counts.rows[0] as RestoreResult;
}
