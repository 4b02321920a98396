import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { processStamp, startTimeOf } from "./processes";
import { withFileLock } from "./start-lock";

let dir: string;
let lockFile: string;
const children: ChildProcess[] = [];
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "oddwire-lock-"));
  lockFile = path.join(dir, "postgres.lock");
});
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

function otherProcess(): number {
  const child = spawn("sleep", ["600"]);
  children.push(child);
  return child.pid ?? 0;
}

test("callers in one process take turns, and the lock file is gone afterwards", async () => {
  const order: string[] = [];
  await Promise.all(
    ["a", "b", "c"].map((name) =>
      withFileLock(lockFile, async () => {
        order.push(`${name} in`);
        // Held a while, across the others' attempts: a lock that let one in would interleave the order.
        await new Promise((resolve) => setTimeout(resolve, 20));
        order.push(`${name} out`);
      }),
    ),
  );
  expect(order).toEqual(["a in", "a out", "b in", "b out", "c in", "c out"]);
  expect(existsSync(lockFile)).toBe(false);
});

test("a lock held by another live process is waited for, and taken once it is released", async () => {
  const holder = otherProcess();
  writeFileSync(lockFile, processStamp(holder));
  await expect(withFileLock(lockFile, async () => "never", 300)).rejects.toMatchObject({ code: "EMBEDDED_LOCK_TIMEOUT", message: expect.stringContaining(String(holder)) });
  // Released while the next caller waits (it has up to 5 s): taken then, not refused.
  setTimeout(() => rmSync(lockFile), 200);
  await expect(withFileLock(lockFile, async () => "mine", 5000)).resolves.toBe("mine");
});

test("a lock left by a process that is gone is broken", async () => {
  const gone = spawn("true");
  await new Promise((resolve) => gone.once("exit", resolve));
  writeFileSync(lockFile, `${gone.pid} 1`);
  await expect(withFileLock(lockFile, async () => "mine", 1000)).resolves.toBe("mine");
});

test("a lock whose pid now names another process (another start time) is broken", async () => {
  const reused = otherProcess();
  expect(startTimeOf(reused)).not.toBe("");
  writeFileSync(lockFile, `${reused} 1`);
  await expect(withFileLock(lockFile, async () => "mine", 1000)).resolves.toBe("mine");
});

test("an error in the work releases the lock", async () => {
  await expect(withFileLock(lockFile, async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
  expect(existsSync(lockFile)).toBe(false);
  await expect(withFileLock(lockFile, async () => "next", 1000)).resolves.toBe("next");
});
