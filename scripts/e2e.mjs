// Runs the browser journeys in Debian's Chromium. Without a browser they are skipped loudly,
// except under CI=true, where a missing browser is a failure.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const chromium = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

if (!existsSync(chromium)) {
  const banner = [
    "",
    "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!",
    `!! BROWSER TESTS SKIPPED: no Chromium at ${chromium}`,
    "!! Install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH.",
    "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!",
    "",
  ].join("\n");
  if (process.env.CI === "true") {
    console.error(`${banner}\nCI=true: browser tests are required, failing.`);
    process.exit(1);
  }
  console.warn(banner);
  process.exit(0);
}

// Each worker has its own server (playwright.config.ts), so a worker count given here sets how many start.
const args = process.argv.slice(2);
let workers = process.env.E2E_WORKERS;
for (const [i, arg] of args.entries()) {
  const match = /^(?:--workers|-j)(?:=?(\d+))?$/.exec(arg);
  if (match) workers = match[1] ?? args[i + 1];
}

const env = { ...process.env, CHROMIUM_PATH: chromium, ...(workers ? { E2E_WORKERS: workers } : {}) };
const run = (argv) => spawnSync(process.execPath, argv, { cwd: root, stdio: "inherit", env });
const build = run([path.join(root, "scripts", "ensure-build.mjs")]);
if (build.status !== 0) process.exit(build.status ?? 1);
const tests = run([path.join(root, "node_modules", "@playwright", "test", "cli.js"), "test", ...args]);
process.exit(tests.status ?? 1);
