import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, realpathSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { createHash } from "node:crypto";
import type { PostgresBinaries } from "./binaries";
import { EmbeddedServerError } from "./errors";
import { type DbUser, userCanRun } from "./run";

/** The system user PostgreSQL runs as when Oddwire runs as root (PostgreSQL refuses to run as root). */
export const DB_USER_NAME = "oddwire-db";

/** Where clusters (and, if need be, the binaries) go when the database user cannot reach DATA_DIR. */
export const DEFAULT_OUTSIDE_ROOT = "/var/lib/oddwire";

/**
 * The user the database programs run as: this process's own user, or as root a system user
 * (created with useradd when missing). Fails with a clear message where that cannot be done.
 */
export function databaseUser(options: { name?: string; useradd?: string } = {}): DbUser {
  if (process.platform === "win32" || process.getuid?.() !== 0) return null;
  const name = options.name ?? DB_USER_NAME;
  const existing = lookUp(name);
  if (existing) return existing;
  const useradd = options.useradd ?? "useradd";
  const result = spawnSync(useradd, ["--system", "--no-create-home", "--user-group", "--shell", "/usr/sbin/nologin", name], { encoding: "utf8" });
  // Another process may have created it at the same moment: look again before failing.
  const created = lookUp(name);
  if (created) return created;
  const why = result.error ? (result.error as NodeJS.ErrnoException).code === "ENOENT" ? `${useradd} is not available` : result.error.message : result.stderr.trim();
  throw new EmbeddedServerError(
    "EMBEDDED_DB_USER_UNAVAILABLE",
    `PostgreSQL does not run as root, and the system user ${name} it would run as cannot be created (${why}). Run Oddwire as a normal user`,
  );
}

function lookUp(name: string): DbUser | undefined {
  try {
    const uid = Number(execFileSync("id", ["-u", name], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim());
    const gid = Number(execFileSync("id", ["-g", name], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim());
    return Number.isInteger(uid) && Number.isInteger(gid) ? { name, uid, gid } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The binaries as `user` can run them: where they are, or (when node_modules sits somewhere that user
 * cannot enter, such as under /root) a copy made once under `outsideRoot`.
 */
export function binariesFor(user: DbUser, binaries: PostgresBinaries, outsideRoot: string): PostgresBinaries {
  if (userCanRun(user, binaries.postgres)) return binaries;
  const realNative = realpathSync(binaries.nativeDir);
  const packageName = path.basename(path.dirname(realNative));
  const copy = path.join(outsideRoot, `postgres-${packageName}-${createHash("sha256").update(realNative).digest("hex").slice(0, 12)}`);
  const at = (dir: string): PostgresBinaries => ({
    nativeDir: dir,
    major: binaries.major,
    initdb: path.join(dir, "bin", path.basename(binaries.initdb)),
    pg_ctl: path.join(dir, "bin", path.basename(binaries.pg_ctl)),
    postgres: path.join(dir, "bin", path.basename(binaries.postgres)),
  });
  if (!existsSync(copy)) {
    mkdirSync(outsideRoot, { recursive: true, mode: 0o755 });
    chmodSync(outsideRoot, 0o755);
    const draft = `${copy}.${process.pid}.tmp`;
    rmSync(draft, { recursive: true, force: true });
    cpSync(realNative, draft, { recursive: true, verbatimSymlinks: true });
    try {
      renameSync(draft, copy);
    } catch (error) {
      rmSync(draft, { recursive: true, force: true });
      if (!existsSync(copy)) throw error;
    }
  }
  const copied = at(copy);
  if (!userCanRun(user, copied.postgres)) {
    throw new EmbeddedServerError(
      "EMBEDDED_DB_USER_UNAVAILABLE",
      `The database user ${user?.name} cannot run PostgreSQL from ${binaries.nativeDir} nor from its copy in ${copy}. Run Oddwire as a normal user`,
    );
  }
  return copied;
}
