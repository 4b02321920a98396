// The server's code for `serve` as plain JavaScript (decision 018): server/cli.ts and
// server/web-process.ts, each bundled with its imports from the project (packages stay in
// node_modules) into build/node/. Made, or made again, whenever a source it holds is newer, so it
// is never stale; serving it spares each process the TypeScript loader, which takes about 80 MB.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const BUNDLE_DIR = path.join(root, "build", "node");
const ENTRIES = { cli: "server/cli.ts", "web-process": "server/web-process.ts" };
const MANIFEST = path.join(BUNDLE_DIR, "inputs.json");
/** Files that change how every source compiles. */
const SETTINGS = ["tsconfig.json", "package.json"];

/** The bundled module of an entry ("cli", "web-process"). */
export function bundledEntry(name) {
  return path.join(BUNDLE_DIR, `${name}.mjs`);
}

/**
 * Makes the bundle unless it is there and newer than every file it was made from; returns how long
 * making it took in ms (0 when it was fresh). Processes starting together may each make it: every
 * file is written beside its place and renamed into it, so a reader sees one whole version.
 */
export async function ensureServerBundle() {
  if (isFresh()) return 0;
  const started = Date.now();
  const { build, stop } = await import("esbuild");
  const staging = path.join(root, "build", `.node-${process.pid}-${randomBytes(4).toString("hex")}`);
  try {
    const result = await build({
      absWorkingDir: root,
      entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, path.join(root, file)])),
      outdir: staging,
      outExtension: { ".js": ".mjs" },
      bundle: true,
      packages: "external",
      platform: "node",
      format: "esm",
      target: "node20",
      tsconfig: path.join(root, "tsconfig.json"),
      metafile: true,
      logLevel: "silent",
    });
    mkdirSync(BUNDLE_DIR, { recursive: true });
    for (const name of Object.keys(ENTRIES)) renameSync(path.join(staging, `${name}.mjs`), bundledEntry(name));
    const inputs = [...Object.keys(result.metafile.inputs), ...SETTINGS];
    // The time the build started: a source saved while it ran makes the next start build again.
    const manifestTmp = path.join(staging, "inputs.json");
    writeFileSync(manifestTmp, JSON.stringify({ startedAt: started, inputs }));
    renameSync(manifestTmp, MANIFEST);
  } finally {
    // esbuild builds in a process of its own, which would otherwise stay beside the server.
    await stop();
    rmSync(staging, { recursive: true, force: true });
  }
  return Date.now() - started;
}

function isFresh() {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(MANIFEST, "utf8"));
  } catch {
    return false;
  }
  if (!Object.keys(ENTRIES).every((name) => existsSync(bundledEntry(name)))) return false;
  return manifest.inputs.every((input) => {
    try {
      return statSync(path.join(root, input)).mtimeMs < manifest.startedAt;
    } catch {
      return false; // a source that is gone
    }
  });
}
