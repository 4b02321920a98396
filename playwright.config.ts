import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

// One port for the whole run: workers re-evaluate this file but inherit the environment. Below
// Linux's ephemeral range (32768+), so no outgoing connection can hold it.
process.env.E2E_PORT ??= String(20_000 + Math.floor(Math.random() * 12_000));
const port = Number(process.env.E2E_PORT);
// This run's data dir (its outbox) and PostgreSQL database name, known to the server and the journeys.
process.env.E2E_DATA_DIR ??= path.join(os.tmpdir(), `oddwire-e2e-${process.pid}-${Date.now()}`);
process.env.E2E_DATABASE_NAME ??= `oddwire_e2e_${process.pid}`;

export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  timeout: 30_000,
  workers: 2,
  forbidOnly: process.env.CI === "true",
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: "chromium",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: {
    // The built server on a fresh database (PGlite in a temp dir, or a new PostgreSQL database).
    command: "node --import tsx e2e/fixture-server.ts",
    url: `http://127.0.0.1:${port}/healthz`,
    env: {
      PORT: String(port),
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      SITE_URL: `http://127.0.0.1:${port}`,
      E2E_DATA_DIR: process.env.E2E_DATA_DIR,
      E2E_DATABASE_NAME: process.env.E2E_DATABASE_NAME,
    },
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
  },
});
