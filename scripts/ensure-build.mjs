// Builds the web app when there is no build yet or a source file is newer than it, so that
// `npm start` works on a fresh clone and never serves a stale build.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { WEB_BUILD_INPUTS } from "./build-inputs.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const marker = path.join(root, "build", "server", "index.js");
const inputs = WEB_BUILD_INPUTS;

function newest(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(target).reduce((max, name) => Math.max(max, newest(path.join(target, name))), stat.mtimeMs);
}

// One build at a time (tests in parallel processes ask for one together): a second process waits for
// the first, then finds the build fresh. A lock left by a process that died is taken after 10 minutes.
const lock = path.join(root, ".build-lock");
for (;;) {
  try {
    mkdirSync(lock);
    break;
  } catch (error) {
    if (error.code !== "EEXIST") throw error;
    const age = Date.now() - (existsSync(lock) ? statSync(lock).mtimeMs : Date.now());
    if (age > 10 * 60_000) rmSync(lock, { recursive: true, force: true });
    else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
  }
}
process.on("exit", () => rmSync(lock, { recursive: true, force: true }));

const built = existsSync(marker) ? statSync(marker).mtimeMs : 0;
const changed = Math.max(...inputs.map((p) => newest(path.join(root, p))));
if (built > 0 && built >= changed) process.exit(0);

console.log(built === 0 ? "No build yet: building the web app..." : "Sources changed: rebuilding the web app...");
// The bundler's file-by-file report stays out of the way; it is shown in full when the build fails.
const started = Date.now();
// Always the production build: a caller's NODE_ENV (a test runner's "test", say) would otherwise give
// React's development build to every browser.
const env = { ...process.env, NODE_ENV: "production" };
const step = (script, args) => spawnSync(process.execPath, [script, ...args], { cwd: root, encoding: "utf8", env, maxBuffer: 64 * 1024 * 1024 });
const result = step(path.join(root, "node_modules", "@react-router", "dev", "bin.js"), ["build"]);
if (result.status !== 0) {
  process.stdout.write(result.stdout ?? "");
  process.stderr.write(result.stderr ?? "");
  console.error("The build failed: its output is above.");
  process.exit(result.status ?? 1);
}
// Static files are compressed once, here, never per request.
const compressed = step(path.join(root, "scripts", "precompress.mjs"), []);
if (compressed.status !== 0) {
  process.stdout.write(compressed.stdout ?? "");
  process.stderr.write(compressed.stderr ?? "");
  process.exit(compressed.status ?? 1);
}
console.log(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s (${compressed.stdout.trim()}).`);
