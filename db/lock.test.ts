import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { openDatabase } from "./client";
import { DataDirInUseError, LOCK_FILE, lockDataDir } from "./lock";

let dir: string;
let lockFile: string;
const children: ChildProcess[] = [];

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "oddwire-lock-"));
  lockFile = path.join(dir, LOCK_FILE);
});
afterEach(() => {
  for (const child of children.splice(0)) child.kill();
  rmSync(dir, { recursive: true, force: true });
});

/** The pid of another process that stays alive for the test. */
function liveOtherPid(): number {
  const child = spawn("sleep", ["5"], { stdio: "ignore" });
  children.push(child);
  if (child.pid === undefined) throw new Error("could not start sleep");
  return child.pid;
}

/** The pid of a process that has already exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.once("exit", resolve));
  if (child.pid === undefined) throw new Error("could not start node");
  return child.pid;
}

function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected it to throw");
}

describe("lockDataDir", () => {
  test("writes oddwire.lock holding our pid", () => {
    lockDataDir(dir);
    expect(readFileSync(lockFile, "utf8")).toBe(String(process.pid));
  });

  test("creates the data directory when it does not exist yet", () => {
    const nested = path.join(dir, "a", "b");
    lockDataDir(nested);
    expect(readFileSync(path.join(nested, LOCK_FILE), "utf8")).toBe(String(process.pid));
  });

  test("its release removes the lock file", () => {
    const release = lockDataDir(dir);
    release();
    expect(existsSync(lockFile)).toBe(false);
  });

  test("after a release, the directory can be locked again", () => {
    lockDataDir(dir)();
    const release = lockDataDir(dir);
    expect(readFileSync(lockFile, "utf8")).toBe(String(process.pid));
    release();
  });

  test("refuses a second lock on the same directory from this same process", () => {
    const release = lockDataDir(dir);
    try {
      expect(thrownBy(() => lockDataDir(path.join(dir, ".")))).toBeInstanceOf(DataDirInUseError);
    } finally {
      release();
    }
  });

  test("takes over a lock with our own pid left by an earlier run (a container's pid 1)", () => {
    writeFileSync(lockFile, String(process.pid));
    const release = lockDataDir(dir);
    expect(readFileSync(lockFile, "utf8")).toBe(String(process.pid));
    release();
  });

  test("leaves no draft files behind", () => {
    const release = lockDataDir(dir);
    release();
    expect(readdirSync(dir)).toEqual([]);
  });

  test("refuses a directory held by another live process, saying how to get out", () => {
    const pid = liveOtherPid();
    writeFileSync(lockFile, String(pid));

    const error = thrownBy(() => lockDataDir(dir));
    expect(error).toBeInstanceOf(DataDirInUseError);
    const inUse = error as DataDirInUseError;
    expect(inUse).toMatchObject({ code: "DATA_DIR_IN_USE", pid, dataDir: dir });
    expect(inUse.message).toContain(`pid ${pid}`);
    expect(inUse.message).toContain(dir);
    expect(inUse.message).toMatch(/stop that process/i);
    expect(inUse.message).toContain("DATABASE_URL");
    // The other process keeps its lock.
    expect(readFileSync(lockFile, "utf8")).toBe(String(pid));
  });

  test("takes over a lock left by a process that died", async () => {
    writeFileSync(lockFile, String(await deadPid()));
    lockDataDir(dir);
    expect(readFileSync(lockFile, "utf8")).toBe(String(process.pid));
  });

  test.each([
    ["empty", ""],
    ["not a pid", "garbage"],
  ])("takes over a lock file that is %s", (_case, content) => {
    writeFileSync(lockFile, content);
    lockDataDir(dir);
    expect(readFileSync(lockFile, "utf8")).toBe(String(process.pid));
  });
});

describe("openDatabase on a data directory", () => {
  test("refuses a directory held by another live process before opening anything", async () => {
    const pid = liveOtherPid();
    writeFileSync(lockFile, String(pid));

    await expect(openDatabase({ dataDir: dir })).rejects.toBeInstanceOf(DataDirInUseError);
    expect(readFileSync(lockFile, "utf8")).toBe(String(pid));
    expect(existsSync(path.join(dir, "pglite"))).toBe(false);
  });

  test("holds the lock while open and releases it on close", async () => {
    const database = await openDatabase({ dataDir: dir });
    try {
      expect(readFileSync(lockFile, "utf8")).toBe(String(process.pid));
    } finally {
      await database.close();
    }
    expect(existsSync(lockFile)).toBe(false);
  }, 60_000);
});
