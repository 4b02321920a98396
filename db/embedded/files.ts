import { randomBytes } from "node:crypto";
import { chownSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileSystemError } from "./errors";
import type { DbUser } from "./run";

// The embedded server's own files: DATA_DIR made, the superuser's secret, files written for the
// database user, and the server's log (rotated, read from where a start began).

export function makeDataDir(dataDir: string): string {
  const absolute = path.resolve(dataDir);
  try {
    // One level at a time: a recursive mkdir on a read-only file system reports ENOENT instead of EROFS.
    const missing: string[] = [];
    for (let dir = absolute; !existsSync(dir); dir = path.dirname(dir)) missing.unshift(dir);
    for (const dir of missing) mkdirSync(dir);
    return realpathSync(absolute);
  } catch (error) {
    throw fileSystemError(error, absolute, "create DATA_DIR");
  }
}

export function readOrCreateSecret(file: string): string {
  try {
    return readFileSync(file, "utf8").trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw fileSystemError(error, file, "read the database secret");
  }
  const secret = randomBytes(24).toString("base64url");
  try {
    // On disk before any cluster is made with it: a cluster whose password is lost is locked for good.
    const fd = openSync(file, "wx", 0o600);
    try {
      writeFileSync(fd, `${secret}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw fileSystemError(error, file, "write the database secret");
  }
  return secret;
}

export function writeOwned(file: string, text: string, user: DbUser): void {
  writeFileSync(file, text, { mode: 0o600 });
  if (user) chownSync(file, user.uid, user.gid);
}

export function syncDir(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

const LOG_LIMIT = 10 * 1024 * 1024;

export function rotateLog(file: string): void {
  if (sizeOf(file) > LOG_LIMIT) renameSync(file, `${file}.1`);
}

export function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

export function readFrom(file: string, offset: number): string {
  try {
    return readFileSync(file).subarray(offset).toString("utf8");
  } catch {
    return "";
  }
}
