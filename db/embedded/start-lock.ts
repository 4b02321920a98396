import { linkSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { EmbeddedServerError, fileSystemError } from "./errors";
import { processStamp, stampIsLive } from "./processes";

// Within one process, callers on the same file queue here; the file lock is between processes.
const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `work` holding the lock file `file` (created with link(), which is atomic, holding
 * "pid starttime"). A lock whose process is gone, or whose pid now names another process, is
 * broken; breaking goes through a second lock so that two waiters cannot both break it and then
 * remove each other's fresh lock.
 */
export async function withFileLock<T>(file: string, work: () => Promise<T>, timeoutMs = 120_000): Promise<T> {
  const previous = queues.get(file) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(async () => {
    const release = await acquire(file, timeoutMs);
    try {
      return await work();
    } finally {
      release();
    }
  });
  const tail = run.catch(() => undefined);
  queues.set(file, tail);
  void tail.then(() => {
    if (queues.get(file) === tail) queues.delete(file);
  });
  return run;
}

async function acquire(file: string, timeoutMs: number): Promise<() => void> {
  const stamp = processStamp();
  const draft = `${file}.${process.pid}.${Date.now()}`;
  try {
    writeFileSync(draft, stamp);
  } catch (error) {
    throw fileSystemError(error, file, "take the database start lock");
  }
  const deadline = Date.now() + timeoutMs;
  try {
    for (let wait = 10; ; wait = Math.min(wait * 2, 200)) {
      try {
        linkSync(draft, file);
        return () => rmSync(file, { force: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw fileSystemError(error, file, "take the database start lock");
      }
      const holder = readOrEmpty(file);
      if (holder !== undefined && !stampIsLive(holder)) breakStale(file, holder);
      if (Date.now() > deadline) {
        throw new EmbeddedServerError(
          "EMBEDDED_LOCK_TIMEOUT",
          `Waited ${Math.round(timeoutMs / 1000)} s for the database start lock ${file}, held by process ${holder?.split(" ")[0] ?? "?"}. If no Oddwire process is starting, remove that file`,
        );
      }
      await sleep(wait);
    }
  } finally {
    rmSync(draft, { force: true });
  }
}

function breakStale(file: string, stale: string): void {
  const breaker = `${file}.break`;
  const draft = `${breaker}.${process.pid}`;
  writeFileSync(draft, processStamp());
  try {
    linkSync(draft, breaker);
  } catch {
    // Someone else is breaking it; a breaker that died mid-way (it holds it for microseconds) is cleared after 10 s.
    if (ageMs(breaker) > 10_000) rmSync(breaker, { force: true });
    return;
  } finally {
    rmSync(draft, { force: true });
  }
  try {
    if (readOrEmpty(file) === stale) rmSync(file, { force: true });
  } finally {
    rmSync(breaker, { force: true });
  }
}

function readOrEmpty(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

function ageMs(file: string): number {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}
