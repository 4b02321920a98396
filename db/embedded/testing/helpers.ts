import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { processesIn } from "~/db/embedded/processes";
import type { EmbeddedServer } from "~/db/embedded/server";

const CHILD = fileURLToPath(new URL("./child.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

/** Small and quick for tests: kill -9 of processes loses nothing the kernel holds, so fsync can go. */
export const TEST_SETTINGS = { shared_buffers: "16MB", fsync: "off", max_connections: 30 };

/** A throw-away place under the temp dir, and everything started in it, cleaned up by `cleanUp`. */
export class Scratch {
  private readonly dirs: string[] = [];
  private readonly servers: EmbeddedServer[] = [];
  private readonly children: ChildProcess[] = [];
  private readonly pgdatas: string[] = [];
  readonly afterCleanUp: (() => void)[] = [];

  dir(prefix = "oddwire-embedded-"): string {
    const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
    // mkdtemp makes it 0700, which as root would keep the database user out (that case has its own test).
    chmodSync(dir, 0o755);
    this.dirs.push(dir);
    return dir;
  }

  server(server: EmbeddedServer): EmbeddedServer {
    this.servers.push(server);
    return server;
  }

  child(child: ChildProcess): ChildProcess {
    this.children.push(child);
    return child;
  }

  /** A cluster whose processes are killed at clean-up if anything left them running. */
  watchCluster(pgdata: string): void {
    this.pgdatas.push(pgdata);
  }

  async cleanUp(): Promise<void> {
    for (const child of this.children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    for (const server of this.servers) await server.stop().catch(() => undefined);
    for (const pgdata of this.pgdatas) killCluster(pgdata);
    for (const dir of this.dirs) killCluster(path.join(clusterHome(dir), "pgdata"));
    for (const step of this.afterCleanUp) step();
    for (const dir of this.dirs.reverse()) rmSync(dir, { recursive: true, force: true });
  }
}

/** Sends SIGKILL to every process of the cluster (the postmaster and its children all work in pgdata). */
export function killCluster(pgdata: string): number[] {
  const pids = processesIn(pgdata);
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  return pids;
}

export function postmasterPid(pgdata: string): number {
  return Number.parseInt(readFileSync(path.join(pgdata, "postmaster.pid"), "utf8").split("\n")[0] ?? "", 10);
}

export async function query<T extends pg.QueryResultRow = Record<string, unknown>>(url: string, sql: string, values?: unknown[]): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

export type ChildEvent = { event: string; [key: string]: unknown };

/** A child Node process running child.ts; `events` fills as it prints, `next(event)` waits for one. */
export function startChild(scratch: Scratch, args: object, options: { detached?: boolean; uid?: number; gid?: number } = {}) {
  const child = scratch.child(
    spawn(process.execPath, ["--import", "tsx", CHILD, JSON.stringify(args)], {
      cwd: ROOT,
      stdio: ["pipe", "pipe", "pipe"],
      detached: options.detached,
      ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.gid ?? options.uid }),
    }),
  );
  const events: ChildEvent[] = [];
  let buffered = "";
  let stderr = "";
  const waiters: (() => void)[] = [];
  child.stdout?.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    let newline: number;
    while ((newline = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line.startsWith("{")) events.push(JSON.parse(line) as ChildEvent);
    }
    for (const wake of waiters.splice(0)) wake();
  });
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  void exited.then(() => {
    for (const wake of waiters.splice(0)) wake();
  });
  /** Waits for the first event named `name` (or "error"); fails if the child exits first. */
  async function next(name: string, timeoutMs = 60_000): Promise<ChildEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = events.find((e) => e.event === name || e.event === "error");
      if (found) return found;
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`child exited (${child.exitCode ?? child.signalCode}) before "${name}": ${stderr}`);
      if (Date.now() > deadline) throw new Error(`child printed no "${name}" in ${timeoutMs} ms: ${stderr}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }
  return { child, events, next, exited, stderr: () => stderr };
}

/** Where the cluster of a DATA_DIR lives: DATA_DIR/postgres, or where DATA_DIR/postgres.location says. */
export function clusterHome(dataDir: string): string {
  const location = path.join(dataDir, "postgres.location");
  return existsSync(location) ? readFileSync(location, "utf8").trim() : path.join(dataDir, "postgres");
}
