import { createHash } from "node:crypto";
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { EmbeddedServerError } from "./errors";
import { type DbUser, userCanEnter } from "./run";

export const SOCKET_NAME = ".s.PGSQL.5432";

/** Where everything of the embedded server lives, for one DATA_DIR. */
export type Layout = {
  /** The real path of DATA_DIR. */
  dataDir: string;
  /** The superuser's password (0600). */
  secretFile: string;
  /** Taken while initialising, starting or stopping the server. */
  lockFile: string;
  /** One file per process using the server (see server.ts). */
  usersDir: string;
  /** Present when the cluster lives outside DATA_DIR: holds where. */
  locationFile: string;
  /** The directory holding the cluster, owned by the database user: DATA_DIR/postgres, or one outside. */
  home: string;
  pgdata: string;
  logFile: string;
  socketDir: string;
  socketFile: string;
};

/** The longest Unix socket path the system takes (sun_path less its terminating NUL). */
export function socketPathLimit(platform: NodeJS.Platform = process.platform): number {
  return platform === "linux" ? 107 : 103;
}

/** A short name for a DATA_DIR, the same every time for the same real path. */
export function dataDirTag(realDataDir: string): string {
  return createHash("sha256").update(realDataDir).digest("hex").slice(0, 16);
}

export function layoutPaths(realDataDir: string, home: string, socketDir: string): Layout {
  return {
    dataDir: realDataDir,
    secretFile: path.join(realDataDir, "postgres.secret"),
    lockFile: path.join(realDataDir, "postgres.lock"),
    usersDir: path.join(realDataDir, "postgres.users"),
    locationFile: path.join(realDataDir, "postgres.location"),
    home,
    pgdata: path.join(home, "pgdata"),
    logFile: path.join(home, "postgres.log"),
    socketDir,
    socketFile: path.join(socketDir, SOCKET_NAME),
  };
}

/**
 * Decides (and makes) the cluster's home and socket directory. The home is DATA_DIR/postgres when
 * the database user can enter DATA_DIR; otherwise (say DATA_DIR under /root, mode 700, while the
 * server runs as oddwire-db) a directory under `outsideRoot` named after DATA_DIR, recorded in
 * DATA_DIR/postgres.location. The socket goes beside the cluster when its path fits the system's
 * limit, else in a short owner-only directory under the temp dir.
 */
export function prepareLayout(
  realDataDir: string,
  user: DbUser,
  outsideRoot: string,
  logger: { info(obj: object, msg: string): void },
): Layout {
  const locationFile = path.join(realDataDir, "postgres.location");
  let home = path.join(realDataDir, "postgres");
  if (existsSync(locationFile)) {
    home = readFileSync(locationFile, "utf8").trim();
  } else if (!userCanEnter(user, realDataDir)) {
    home = path.join(outsideRoot, `${path.basename(realDataDir).replace(/[^\w.-]/g, "_").slice(0, 40)}-${dataDirTag(realDataDir)}`);
    mkdirSync(outsideRoot, { recursive: true, mode: 0o755 });
    writeFileSync(locationFile, `${home}\n`, { mode: 0o644 });
    logger.info({ dataDir: realDataDir, cluster: home, user: user?.name }, "the database user cannot enter DATA_DIR: the database cluster lives outside it");
  }
  ownedDir(home, user, "the database cluster's directory");
  let socketDir = home;
  if (Buffer.byteLength(path.join(socketDir, SOCKET_NAME)) > socketPathLimit()) {
    socketDir = path.join(os.tmpdir(), `oddwire-${dataDirTag(realDataDir)}`);
    if (Buffer.byteLength(path.join(socketDir, SOCKET_NAME)) > socketPathLimit()) socketDir = path.join("/tmp", `oddwire-${dataDirTag(realDataDir)}`);
    ownedDir(socketDir, user, "the database socket's directory");
  }
  return layoutPaths(realDataDir, home, socketDir);
}

/** Makes `dir` (mode 0700, owned by the database user) or checks that the one there is exactly that. */
function ownedDir(dir: string, user: DbUser, what: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const uid = user?.uid ?? process.getuid?.() ?? 0;
  let stat = lstatSync(dir);
  // One we (root) made a moment ago, before handing it over.
  if (stat.isDirectory() && user && stat.uid === 0) {
    chownSync(dir, user.uid, user.gid);
    stat = lstatSync(dir);
  }
  if (!stat.isDirectory() || stat.uid !== uid) {
    throw new EmbeddedServerError(
      "EMBEDDED_SOCKET_DIR_UNSAFE",
      `${dir} (${what}) exists but is not a directory owned by ${user?.name ?? "this user"}: remove it or point DATA_DIR elsewhere`,
    );
  }
  if ((stat.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

/** Whether DATA_DIR holds an embedded cluster already, in it or where DATA_DIR/postgres.location names. */
export function clusterExists(dataDir: string): boolean {
  const locationFile = path.join(dataDir, "postgres.location");
  const home = existsSync(locationFile) ? readFileSync(locationFile, "utf8").trim() : path.join(dataDir, "postgres");
  return existsSync(path.join(home, "pgdata", "PG_VERSION"));
}
