import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { loadBinaries } from "./binaries";
import { binariesFor, DB_USER_NAME, databaseUser } from "./db-user";
import { runningPostmaster, startEmbeddedServer } from "./server";
import { clusterHome, query, Scratch, startChild, TEST_SETTINGS } from "./testing/helpers";

// These need root: useradd, mount, and a database user other than the one running the tests.
const asRoot = process.getuid?.() === 0;
if (!asRoot) console.warn("db/embedded/root.test.ts: skipped, these tests need root (useradd, mount)");

let scratch: Scratch;
beforeEach(() => {
  scratch = new Scratch();
});
afterEach(async () => {
  await scratch.cleanUp();
});

function logger() {
  const lines: { level: string; msg: string; obj: Record<string, unknown> }[] = [];
  return {
    lines,
    info: (obj: object, msg: string) => lines.push({ level: "info", msg, obj: obj as Record<string, unknown> }),
    warn: (obj: object, msg: string) => lines.push({ level: "warn", msg, obj: obj as Record<string, unknown> }),
  };
}

function uidOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("Uid:")) ?? "";
  return Number(line.split(/\s+/)[1]);
}

function mountTmpfs(dir: string, options: string): void {
  mkdirSync(dir, { recursive: true });
  execFileSync("mount", ["-t", "tmpfs", "-o", options, "tmpfs", dir]);
  scratch.afterCleanUp.unshift(() => execFileSync("umount", ["-l", dir]));
}

describe.skipIf(!asRoot)("as root", () => {
  test("the server runs as the system user oddwire-db, and the node process (root) connects through the socket with the secret", async () => {
    const dataDir = scratch.dir();
    const server = scratch.server(await startEmbeddedServer({ dataDir, role: "command", settings: TEST_SETTINGS }));
    const user = databaseUser();
    expect(user?.name).toBe(DB_USER_NAME);
    const pid = runningPostmaster(path.join(dataDir, "postgres", "pgdata")) ?? 0;
    expect(uidOf(pid)).toBe(user?.uid);
    expect(execFileSync("id", ["-un", String(user?.uid)], { encoding: "utf8" }).trim()).toBe(DB_USER_NAME);
    expect(statSync(path.join(dataDir, "postgres")).uid).toBe(user?.uid);
    expect(await query(server.url, "SELECT current_user AS who")).toEqual([{ who: "oddwire" }]);
  });

  test("a DATA_DIR inside a directory the database user cannot enter keeps its cluster outside, records where and says so", async () => {
    const locked = scratch.dir();
    chmodSync(locked, 0o700);
    const dataDir = path.join(locked, "data");
    const outsideRoot = path.join(scratch.dir(), "var-lib-oddwire");
    const log = logger();
    const server = scratch.server(await startEmbeddedServer({ dataDir, role: "command", settings: TEST_SETTINGS, outsideRoot, logger: log }));
    const home = readFileSync(path.join(dataDir, "postgres.location"), "utf8").trim();
    expect(path.dirname(home)).toBe(outsideRoot);
    expect(clusterHome(dataDir)).toBe(home);
    expect(existsSync(path.join(home, "pgdata", "PG_VERSION"))).toBe(true);
    expect(statSync(home).uid).toBe(databaseUser()?.uid);
    expect(log.lines.find((line) => line.obj.cluster === home)?.msg).toContain("outside");
    await query(server.url, "CREATE TABLE t (n int); INSERT INTO t VALUES (3)");
    await server.stop();
    // The next start finds it there again.
    const again = scratch.server(await startEmbeddedServer({ dataDir, role: "command", settings: TEST_SETTINGS, outsideRoot }));
    expect(await query(again.url, "SELECT n FROM t")).toEqual([{ n: 3 }]);
  });

  test("binaries the database user cannot reach (node_modules under a mode-700 directory) are copied where it can", async () => {
    const binaries = await loadBinaries();
    const hidden = scratch.dir();
    chmodSync(hidden, 0o700);
    const native = path.join(hidden, "pkg", "native");
    cpSync(binaries.nativeDir, native, { recursive: true, verbatimSymlinks: true });
    const at = (dir: string) => ({
      nativeDir: dir,
      major: binaries.major,
      initdb: path.join(dir, "bin", "initdb"),
      pg_ctl: path.join(dir, "bin", "pg_ctl"),
      postgres: path.join(dir, "bin", "postgres"),
    });
    const outsideRoot = path.join(scratch.dir(), "outside");
    const usable = binariesFor(databaseUser(), at(native), outsideRoot);
    expect(path.dirname(usable.nativeDir)).toBe(outsideRoot);
    const user = databaseUser();
    expect(execFileSync(usable.postgres, ["--version"], { uid: user?.uid, gid: user?.gid, encoding: "utf8" })).toContain("17.");
    // Reachable ones are used where they are.
    expect(binariesFor(databaseUser(), binaries, outsideRoot)).toBe(binaries);
  });

  test("the database user is created as a system user without a home or a login shell when missing", () => {
    const name = "oddwire-dbtest";
    scratch.afterCleanUp.push(() => execFileSync("userdel", [name]));
    const user = databaseUser({ name });
    expect(user).toMatchObject({ name, uid: expect.any(Number), gid: expect.any(Number) });
    const entry = execFileSync("getent", ["passwd", name], { encoding: "utf8" }).trim().split(":");
    expect(entry[6]).toBe("/usr/sbin/nologin");
    expect(Number(entry[2])).toBeLessThan(1000);
    expect(databaseUser({ name })).toEqual(user);
  });

  test("where the database user cannot be created, the error says to run as a normal user or set DATABASE_URL", () => {
    expect(() => databaseUser({ name: "oddwire-nobody-here", useradd: "/nonexistent/useradd" })).toThrow(
      expect.objectContaining({ code: "EMBEDDED_DB_USER_UNAVAILABLE", message: expect.stringMatching(/run Oddwire as a normal user.*DATABASE_URL/is) }),
    );
  });

  test("run by a normal user, the server runs as that user with the cluster in DATA_DIR, and a DATA_DIR it cannot write is refused", async () => {
    const nobody = { uid: Number(execFileSync("id", ["-u", "nobody"], { encoding: "utf8" })), gid: Number(execFileSync("id", ["-g", "nobody"], { encoding: "utf8" })) };
    const base = scratch.dir();
    const dataDir = path.join(base, "data");
    mkdirSync(dataDir);
    chownSync(dataDir, nobody.uid, nobody.gid);
    const child = startChild(scratch, { dataDir, role: "command", settings: TEST_SETTINGS, insertRows: 5, then: "hold" }, nobody);
    expect((await child.next("inserted")).event).toBe("inserted");
    const pgdata = path.join(dataDir, "postgres", "pgdata");
    const pid = runningPostmaster(pgdata) ?? 0;
    expect(uidOf(pid)).toBe(nobody.uid);
    expect(statSync(path.join(dataDir, "postgres.secret")).uid).toBe(nobody.uid);
    child.child.stdin?.end();
    expect((await child.next("stopped")).event).toBe("stopped");
    expect(runningPostmaster(pgdata)).toBeUndefined();

    const readOnly = path.join(base, "not-mine");
    mkdirSync(readOnly, { mode: 0o555 });
    const refused = startChild(scratch, { dataDir: path.join(readOnly, "data"), role: "command", then: "stop" }, nobody);
    expect(await refused.next("started")).toMatchObject({ event: "error", code: "DATA_DIR_NOT_WRITABLE", message: expect.stringContaining("DATABASE_URL") });
  });

  test("a DATA_DIR on a read-only file system is refused with DATA_DIR_READ_ONLY", async () => {
    const dataDir = path.join(scratch.dir(), "ro");
    mountTmpfs(dataDir, "ro,size=1m");
    await expect(startEmbeddedServer({ dataDir, role: "command", settings: TEST_SETTINGS })).rejects.toMatchObject({
      code: "DATA_DIR_READ_ONLY",
      message: expect.stringMatching(/read-only.*writable directory.*DATABASE_URL/s),
    });
    await expect(startEmbeddedServer({ dataDir: path.join(dataDir, "below"), role: "command" })).rejects.toMatchObject({ code: "DATA_DIR_READ_ONLY" });
  });

  test("a full disk is reported as DISK_FULL, and no half-made cluster is left", async () => {
    const dataDir = path.join(scratch.dir(), "full");
    mountTmpfs(dataDir, "size=1m,mode=0755");
    await expect(startEmbeddedServer({ dataDir, role: "command", settings: TEST_SETTINGS })).rejects.toMatchObject({
      code: "DISK_FULL",
      message: expect.stringMatching(/full.*Free some space.*DATABASE_URL/s),
    });
    const home = path.join(dataDir, "postgres");
    expect(readdirSync(home)).toEqual([]);
  });
});
