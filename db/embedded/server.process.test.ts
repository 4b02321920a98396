import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { reaching } from "~/test/reaching";
import { databaseUser } from "./db-user";
import { socketPathLimit } from "./layout";
import { cwdOf } from "./processes";
import { runningPostmaster, serverOptions, startEmbeddedServer } from "./server";
import { killCluster, postmasterPid, query, Scratch, startChild, TEST_SETTINGS } from "./testing/helpers";

let scratch: Scratch;
beforeEach(() => {
  scratch = new Scratch();
});
afterEach(async () => {
  await scratch.cleanUp();
});

const newScratch = () => scratch;

function start(dataDir: string, role: "serve" | "command" = "command", extra: { logger?: Parameters<typeof startEmbeddedServer>[0]["logger"]; watchIntervalMs?: number } = {}) {
  return startEmbeddedServer({ dataDir, role, settings: TEST_SETTINGS, ...extra }).then((server) => scratch.server(server));
}

function capturingLogger() {
  const lines: { level: string; msg: string; obj: object }[] = [];
  return {
    lines,
    info: (obj: object, msg: string) => lines.push({ level: "info", msg, obj }),
    warn: (obj: object, msg: string) => lines.push({ level: "warn", msg, obj }),
  };
}

const pgdataOf = (dataDir: string) => path.join(dataDir, "postgres", "pgdata");

describe("first use", () => {
  test("initialises a UTF8, C-locale cluster with the database oddwire, the superuser oddwire and a password kept owner-only in DATA_DIR", async () => {
    const dataDir = newScratch().dir();
    const server = await start(dataDir);
    expect(server.startedHere).toBe(true);
    const [row] = await query(
      server.url,
      "SELECT current_user AS who, current_database() AS db, pg_encoding_to_char(encoding) AS encoding, datcollate FROM pg_database WHERE datname = current_database()",
    );
    expect(row).toEqual({ who: "oddwire", db: "oddwire", encoding: "UTF8", datcollate: "C" });
    const secretFile = path.join(dataDir, "postgres.secret");
    expect(statSync(secretFile).mode & 0o777).toBe(0o600);
    const secret = readFileSync(secretFile, "utf8").trim();
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(new URL(server.url).password).toBe(secret);
    // The bundled extensions the schema needs load.
    await query(server.url, "CREATE EXTENSION pg_trgm; CREATE EXTENSION unaccent; CREATE EXTENSION fuzzystrmatch");
  });

  test("listens on a Unix socket only, and lets nobody in without the password", async () => {
    const dataDir = newScratch().dir();
    const server = await start(dataDir);
    const [settings] = await query(server.url, "SELECT current_setting('listen_addresses') AS listen, current_setting('password_encryption') AS encryption");
    expect(settings).toEqual({ listen: "", encryption: "scram-sha-256" });
    const rules = await query<{ type: string; auth_method: string }>(server.url, "SELECT type, auth_method FROM pg_hba_file_rules");
    expect(rules).toEqual([{ type: "local", auth_method: "scram-sha-256" }]);
    const wrong = new URL(server.url);
    wrong.password = "not-the-secret";
    await expect(query(wrong.toString(), "SELECT 1")).rejects.toMatchObject({ code: "28P01" });
    const none = new URL(server.url);
    none.password = "";
    await expect(query(none.toString(), "SELECT 1")).rejects.toThrow();
  });

  test("urlFor names another database on the same server", async () => {
    const server = await start(newScratch().dir());
    await query(server.url, "CREATE DATABASE other_one");
    const [row] = await query(server.urlFor("other_one"), "SELECT current_database() AS db");
    expect(row).toEqual({ db: "other_one" });
  });

  test("a crash in the middle of initialisation leaves nothing that looks like a cluster, and the next start makes a whole one", async () => {
    const s = newScratch();
    const dataDir = s.dir();
    const crashing = startChild(s, { dataDir, role: "command", settings: TEST_SETTINGS, then: "stop" }, { detached: true });
    const home = path.join(dataDir, "postgres");
    // Wait until initdb has written part of the cluster, then kill the process and initdb with it.
    await expect
      .poll(() => existsSync(home) && readdirSync(home).some((name) => existsSync(path.join(home, name, "base"))), { timeout: 60_000, message: "initdb to be half-way" })
      .toBe(true);
    process.kill(-(crashing.child.pid ?? 0), "SIGKILL");
    await crashing.exited;
    expect(existsSync(path.join(home, "pgdata", "PG_VERSION"))).toBe(false);

    const server = await start(dataDir);
    expect(server.startedHere).toBe(true);
    expect(await query(server.url, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
    expect(readdirSync(home).filter((name) => name.startsWith("pgdata.init-"))).toEqual([]);
  });
});

describe("later uses", () => {
  test("two processes starting at once initialise and start it once, and both use it", async () => {
    const s = newScratch();
    const dataDir = s.dir();
    const a = startChild(s, { dataDir, role: "command", settings: TEST_SETTINGS, then: "hold" });
    const b = startChild(s, { dataDir, role: "command", settings: TEST_SETTINGS, then: "hold" });
    const [startedA, startedB] = await Promise.all([a.next("started"), b.next("started")]);
    expect([startedA.event, startedB.event]).toEqual(["started", "started"]);
    expect([startedA.startedHere, startedB.startedHere].sort()).toEqual([false, true]);
    const logs = [...a.events, ...b.events].filter((e) => e.event === "log").map((e) => e.msg);
    expect(logs.filter((msg) => msg === "initialised the embedded PostgreSQL cluster")).toHaveLength(1);
    expect(logs.filter((msg) => msg === "started the embedded PostgreSQL server")).toHaveLength(1);
    expect(await query(String(startedA.url), "SELECT 1 AS one")).toEqual([{ one: 1 }]);
    // The one that started it leaves first: the other still uses it, so it stays up until the last one leaves.
    const [first, second] = startedA.startedHere ? [a, b] : [b, a];
    first.child.stdin?.end();
    await first.next("stopped");
    expect(await query(String(startedA.url), "SELECT 1 AS one")).toEqual([{ one: 1 }]);
    second.child.stdin?.end();
    await second.next("stopped");
    expect(runningPostmaster(pgdataOf(dataDir))).toBeUndefined();
  });

  test("a later start of a stopped cluster starts it again with its rows", async () => {
    const dataDir = newScratch().dir();
    const first = await start(dataDir);
    await query(first.url, "CREATE TABLE t (n int); INSERT INTO t VALUES (7)");
    await first.stop();
    expect(runningPostmaster(pgdataOf(dataDir))).toBeUndefined();
    const again = await start(dataDir);
    expect(again.startedHere).toBe(true);
    expect(await query(again.url, "SELECT n FROM t")).toEqual([{ n: 7 }]);
  });

  test("a server that cannot start says why, with PostgreSQL's own words", async () => {
    const dataDir = newScratch().dir();
    await expect(startEmbeddedServer({ dataDir, role: "command", settings: { shared_buffers: "lots" } })).rejects.toMatchObject({
      code: "EMBEDDED_START_FAILED",
      message: expect.stringMatching(/Cannot start the embedded PostgreSQL server.*DATABASE_URL.*shared_buffers/s),
    });
  });

  test("a cluster made by another PostgreSQL major version is refused with a message saying what to do", async () => {
    const dataDir = newScratch().dir();
    await (await start(dataDir)).stop();
    writeFileSync(path.join(pgdataOf(dataDir), "PG_VERSION"), "16\n");
    await expect(start(dataDir)).rejects.toMatchObject({ code: "EMBEDDED_CLUSTER_VERSION", message: expect.stringMatching(/PostgreSQL 16.*PostgreSQL 17/) });
  });

  test("a command while serve runs uses serve's server and leaves it running", async () => {
    const dataDir = newScratch().dir();
    const serve = await start(dataDir, "serve");
    const command = await start(dataDir, "command");
    expect(command.startedHere).toBe(false);
    expect(command.url).toBe(serve.url);
    await command.stop();
    expect(await query(serve.url, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
    await serve.stop();
    expect(runningPostmaster(pgdataOf(dataDir))).toBeUndefined();
  });

  test("a command that started the server stops it when it ends", async () => {
    const dataDir = newScratch().dir();
    const command = await start(dataDir, "command");
    expect(command.startedHere).toBe(true);
    expect(runningPostmaster(pgdataOf(dataDir))).toBeDefined();
    await command.stop();
    await command.stop();
    expect(runningPostmaster(pgdataOf(dataDir))).toBeUndefined();
  });

  test("serve takes over a server a command started: the command's end leaves it running, serve's end stops it", async () => {
    const dataDir = newScratch().dir();
    const command = await start(dataDir, "command");
    const serve = await start(dataDir, "serve");
    expect(serve.startedHere).toBe(false);
    await command.stop();
    expect(await query(serve.url, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
    await serve.stop();
    expect(runningPostmaster(pgdataOf(dataDir))).toBeUndefined();
  });

  test("a second serve on the same DATA_DIR is refused, naming the first one's pid", async () => {
    const s = newScratch();
    const dataDir = s.dir();
    await start(dataDir, "serve");
    const second = startChild(s, { dataDir, role: "serve", settings: TEST_SETTINGS, then: "stop" });
    const error = await second.next("started");
    expect(error.event).toBe("error");
    expect(error.code).toBe("SERVE_ALREADY_RUNNING");
    expect(error.message).toContain(`pid ${process.pid}`);
  });

  test("a serve killed outright does not block the next serve", async () => {
    const s = newScratch();
    const dataDir = s.dir();
    const first = startChild(s, { dataDir, role: "serve", settings: TEST_SETTINGS, then: "hold" });
    await first.next("started");
    first.child.kill("SIGKILL");
    await first.exited;
    const serve = await start(dataDir, "serve");
    expect(serve.startedHere).toBe(false);
    expect(await query(serve.url, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
  });
});

describe("the socket", () => {
  test("beside the cluster in DATA_DIR when its path fits", async () => {
    const dataDir = newScratch().dir();
    const server = await start(dataDir);
    expect(new URL(server.url).searchParams.get("host")).toBe(path.join(dataDir, "postgres"));
    expect(existsSync(path.join(dataDir, "postgres", ".s.PGSQL.5432"))).toBe(true);
  });

  test("in a short owner-only directory under the temp dir when DATA_DIR is too long for a socket path", async () => {
    const base = newScratch().dir();
    const dataDir = path.join(base, "a-rather-long-directory-name-".repeat(4), "data");
    expect(Buffer.byteLength(path.join(dataDir, "postgres", ".s.PGSQL.5432"))).toBeGreaterThan(socketPathLimit());
    const server = await start(dataDir);
    const socketDir = new URL(server.url).searchParams.get("host") ?? "";
    scratch.afterCleanUp.push(() => rmSync(socketDir, { recursive: true, force: true }));
    expect(path.dirname(socketDir)).toBe(os.tmpdir());
    expect(Buffer.byteLength(path.join(socketDir, ".s.PGSQL.5432"))).toBeLessThanOrEqual(socketPathLimit());
    expect(statSync(socketDir).mode & 0o777).toBe(0o700);
    expect(await query(server.url, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
    // The same DATA_DIR always finds the same socket.
    const again = await start(dataDir);
    expect(again.url).toBe(server.url);
  });

  test("taken by another program: refused with EMBEDDED_SOCKET_IN_USE naming the socket", async () => {
    const dataDir = newScratch().dir();
    await (await start(dataDir)).stop();
    const socketFile = path.join(dataDir, "postgres", ".s.PGSQL.5432");
    const squatter = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => squatter.listen(socketFile, resolve));
    try {
      await expect(start(dataDir)).rejects.toMatchObject({ code: "EMBEDDED_SOCKET_IN_USE", message: expect.stringContaining(socketFile) });
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });
});

describe("crashes", () => {
  test("rows committed before node and every postgres process are killed with SIGKILL are there after the next start", async () => {
    const s = newScratch();
    const dataDir = s.dir();
    const writer = startChild(s, { dataDir, role: "command", settings: { ...TEST_SETTINGS, fsync: "on" }, insertRows: 500, then: "hold" });
    expect((await writer.next("inserted")).event).toBe("inserted");
    writer.child.kill("SIGKILL");
    await writer.exited;
    expect(killCluster(pgdataOf(dataDir)).length).toBeGreaterThan(1);
    await expect.poll(() => runningPostmaster(pgdataOf(dataDir)), { timeout: 60_000, message: "the postmaster to be gone" }).toBeUndefined();

    const server = await start(dataDir);
    expect(server.startedHere).toBe(true);
    expect(await query(server.url, "SELECT count(*)::int AS n, max(n) AS top FROM kept")).toEqual([{ n: 500, top: 500 }]);
  });

  test("a postmaster.pid whose pid now names an unrelated process of the database user is stale, and the server starts", async () => {
    const dataDir = newScratch().dir();
    const first = await start(dataDir);
    await query(first.url, "CREATE TABLE t (n int); INSERT INTO t VALUES (1)");
    const pgdata = pgdataOf(dataDir);
    killCluster(pgdata);
    await expect.poll(() => runningPostmaster(pgdata), { timeout: 60_000, message: "the postmaster to be gone" }).toBeUndefined();
    // An unrelated long-lived process of the same user takes the pid's place.
    const user = databaseUser();
    const unrelated = scratch.child(spawn("sleep", ["600"], { cwd: "/", ...(user ? { uid: user.uid, gid: user.gid } : {}) }));
    const pidFile = path.join(pgdata, "postmaster.pid");
    const lines = readFileSync(pidFile, "utf8").split("\n");
    lines[0] = String(unrelated.pid);
    writeFileSync(pidFile, lines.join("\n"));
    expect(cwdOf(unrelated.pid ?? 0)).toBe("/");

    const server = await start(dataDir);
    expect(server.startedHere).toBe(true);
    expect(await query(server.url, "SELECT n FROM t")).toEqual([{ n: 1 }]);
    expect(postmasterPid(pgdata)).not.toBe(unrelated.pid);
  });

  test("a postmaster.pid whose process is gone is stale, and the server starts", async () => {
    const dataDir = newScratch().dir();
    await start(dataDir);
    const pgdata = pgdataOf(dataDir);
    const oldPid = postmasterPid(pgdata);
    killCluster(pgdata);
    await expect.poll(() => runningPostmaster(pgdata), { timeout: 60_000, message: "the postmaster to be gone" }).toBeUndefined();
    expect(existsSync(path.join(pgdata, "postmaster.pid"))).toBe(true);
    const server = await start(dataDir);
    expect(server.startedHere).toBe(true);
    expect(postmasterPid(pgdata)).not.toBe(oldPid);
  });

  test("serve notices the server died, starts it again and says so; committed rows are there", async () => {
    const dataDir = newScratch().dir();
    const logger = capturingLogger();
    const serve = await start(dataDir, "serve", { logger, watchIntervalMs: 200 });
    await query(serve.url, "CREATE TABLE t (n int); INSERT INTO t SELECT generate_series(1, 100)");
    const pgdata = pgdataOf(dataDir);
    const oldPid = postmasterPid(pgdata);
    killCluster(pgdata);
    const rows = await reaching(
      async () => {
        if (runningPostmaster(pgdata) === undefined || postmasterPid(pgdata) === oldPid) return undefined;
        return query(serve.url, "SELECT count(*)::int AS n FROM t").catch(() => undefined);
      },
      (answer) => answer !== undefined,
      "a new connection to succeed",
      60_000,
    );
    expect(rows).toEqual([{ n: 100 }]);
    expect(logger.lines.some((line) => line.level === "warn" && line.msg.includes("stopped unexpectedly"))).toBe(true);
  });
});

test("settings cannot undo the socket-only ones", () => {
  expect(serverOptions({ listen_addresses: "*", shared_buffers: "8MB" }, "/tmp/x y")).toBe(
    `-c 'listen_addresses=' -c 'shared_buffers=8MB' -c 'port=5432' -c 'unix_socket_directories="/tmp/x y"' -c 'unix_socket_permissions=0700'`,
  );
});
