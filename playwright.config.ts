import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, DEFAULT_CHROMIUM_PATH } from "./integrations/browser/chromium";

// Every worker has a server of its own, on its own database (the embedded server in a data dir, or a
// database on TEST_DATABASE_URL's server), so one worker's edits never show in another's pages.
// Change the worker count with E2E_WORKERS: each slot needs its server started before the tests.
const workers = Number(process.env.E2E_WORKERS ?? 2);
if (!Number.isInteger(workers) || workers < 1) throw new Error(`E2E_WORKERS must be a positive integer, not ${process.env.E2E_WORKERS}`);

// Fixed once for the whole run: workers re-evaluate this file but inherit the environment. The ports
// sit below Linux's ephemeral range (32768+), so no outgoing connection can hold them.
process.env.E2E_BASE_PORT ??= String(20_000 + Math.floor(Math.random() * 12_000));
process.env.E2E_RUN_ID ??= `${process.pid}`;
process.env.E2E_RUN_STARTED ??= `${Date.now()}`;
const basePort = Number(process.env.E2E_BASE_PORT);
const runId = process.env.E2E_RUN_ID;

/** The server of one worker slot (Playwright's parallel index, kept by a worker that restarts). */
function slot(index: number) {
  const port = basePort + index;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    dataDir: path.join(os.tmpdir(), `oddwire-e2e-${runId}-${process.env.E2E_RUN_STARTED}-w${index}`),
    databaseName: `oddwire_e2e_${runId}_w${index}`,
  };
}
const slots = Array.from({ length: workers }, (_, index) => slot(index));

// In a worker: its own server, and its data dir and database name for the journeys that read the
// outbox, the fixture site's address or run the CLI.
const parallelIndex = process.env.TEST_PARALLEL_INDEX;
const mine = parallelIndex === undefined ? undefined : slots[Number(parallelIndex)];
if (parallelIndex !== undefined && !mine) {
  throw new Error(`no server for worker ${parallelIndex}: set E2E_WORKERS (now ${workers}), or pass --workers to scripts/e2e.mjs`);
}
if (mine) {
  process.env.E2E_DATA_DIR = mine.dataDir;
  process.env.E2E_DATABASE_NAME = mine.databaseName;
}

export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  timeout: 30_000,
  workers,
  forbidOnly: process.env.CI === "true",
  // One retry under CI: the Sources journey that reloads onto a job that no longer exists has failed
  // twice in full runs on a loaded machine and never alone; a retried pass is still reported as flaky.
  retries: process.env.CI === "true" ? 1 : 0,
  reporter: [["list"]],
  use: {
    baseURL: (mine ?? slots[0]!).url,
    browserName: "chromium",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
  // The built server on a fresh database filled with the journeys' fixtures, one per worker.
  webServer: slots.map((s, index) => ({
    name: `server ${index}`,
    command: "node --import tsx e2e/fixture-server.ts",
    url: `${s.url}/healthz`,
    env: {
      PORT: String(s.port),
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      SITE_URL: s.url,
      // Each journey signs in from an address of its own (X-Forwarded-For), sign-in being limited per
      // address: the browser on loopback stands for the proxy.
      TRUST_PROXY: "loopback",
      E2E_DATA_DIR: s.dataDir,
      E2E_DATABASE_NAME: s.databaseName,
    },
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: "ignore" as const,
    stderr: "pipe" as const,
    gracefulShutdown: { signal: "SIGTERM" as const, timeout: 15_000 },
  })),
});
