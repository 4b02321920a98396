import { defineConfig } from "@playwright/test";
import { slots, workers, mySlot } from "./e2e/slots";
import { CHROMIUM_ARGS, DEFAULT_CHROMIUM_PATH } from "./integrations/browser/chromium";

// In a worker: its own server, and its data dir and database name for the journeys that read the
// outbox, the fixture site's address or run the CLI.
const mine = mySlot();
if (mine) {
  process.env.E2E_DATA_DIR = mine.dataDir;
  process.env.E2E_DATABASE_NAME = mine.databaseName;
}

export default defineConfig({
  testDir: "e2e",
  // The admin signs in once per server (admin-session.setup.ts); the journeys that act as the admin
  // open pages with that stored session (useAdminSession in e2e/helpers.ts).
  projects: [
    { name: "admin session", testMatch: "admin-session.setup.ts" },
    { name: "journeys", testMatch: "**/*.spec.ts", dependencies: ["admin session"] },
  ],
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
      // The journeys that test sign-in itself sign in from an address of their own (X-Forwarded-For),
      // sign-in being limited per address: the browser on loopback stands for the proxy.
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
