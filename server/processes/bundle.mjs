// The server's code as plain JavaScript (decision 018): server/cli/cli.ts and server/processes/web-process.ts,
// bundled with their imports from the project (packages stay in node_modules) into build/node/.
// Made, or made again, whenever a source it holds is newer, so it is never stale; running it spares
// each process the TypeScript loader, which takes about 80 MB and seconds of start-up.
//
// What an entry imports with import() goes into chunks of its own (build/node/chunks/), loaded
// only when that code runs: a CLI command loads its own code and nothing else. Chunks are named by
// their content, so a rebuild never changes a chunk that a running process may still load; those
// of the build before are kept for such a process, older ones are removed.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const BUNDLE_DIR = path.join(root, "build", "node");
const ENTRIES = { cli: "server/cli/cli.ts", "web-process": "server/processes/web-process.ts" };
const MANIFEST = path.join(BUNDLE_DIR, "inputs.json");
const CHUNKS = "chunks";
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
      entryNames: "[name]",
      chunkNames: `${CHUNKS}/[name]-[hash]`,
      splitting: true,
      bundle: true,
      packages: "external",
      platform: "node",
      format: "esm",
      target: "node20",
      tsconfig: path.join(root, "tsconfig.json"),
      metafile: true,
      logLevel: "silent",
    });
    mkdirSync(path.join(BUNDLE_DIR, CHUNKS), { recursive: true });
    // Chunks first, then the entries that import them, so that an entry never names a missing chunk.
    const chunks = readdirSync(path.join(staging, CHUNKS));
    for (const chunk of chunks) renameSync(path.join(staging, CHUNKS, chunk), path.join(BUNDLE_DIR, CHUNKS, chunk));
    for (const name of Object.keys(ENTRIES)) renameSync(path.join(staging, `${name}.mjs`), bundledEntry(name));
    const inputs = [...Object.keys(result.metafile.inputs), ...SETTINGS];
    const before = readManifest()?.chunks ?? [];
    // The time the build started: a source saved while it ran makes the next start build again.
    const manifestTmp = path.join(staging, "inputs.json");
    writeFileSync(manifestTmp, JSON.stringify({ startedAt: started, inputs, chunks, previousChunks: before }));
    renameSync(manifestTmp, MANIFEST);
    const keep = new Set([...chunks, ...before]);
    for (const chunk of readdirSync(path.join(BUNDLE_DIR, CHUNKS))) {
      if (!keep.has(chunk)) rmSync(path.join(BUNDLE_DIR, CHUNKS, chunk), { force: true });
    }
  } finally {
    // esbuild builds in a process of its own, which would otherwise stay beside the server.
    await stop();
    rmSync(staging, { recursive: true, force: true });
  }
  return Date.now() - started;
}

function readManifest() {
  try {
    return JSON.parse(readFileSync(MANIFEST, "utf8"));
  } catch {
    return null;
  }
}

function isFresh() {
  const manifest = readManifest();
  if (!manifest?.chunks) return false;
  if (!Object.keys(ENTRIES).every((name) => existsSync(bundledEntry(name)))) return false;
  if (!manifest.chunks.every((chunk) => existsSync(path.join(BUNDLE_DIR, CHUNKS, chunk)))) return false;
  return manifest.inputs.every((input) => {
    try {
      return statSync(path.join(root, input)).mtimeMs < manifest.startedAt;
    } catch {
      return false; // a source that is gone
    }
  });
}
