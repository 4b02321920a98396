import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import type { ServerBuild } from "react-router";
import { afterAll, describe, expect, inject, test } from "vitest";
import type { Database } from "~/db/client";
import { makeStory } from "~/db/testing/factories";
import { useTestDatabase } from "~/db/testing/test-database";
import { freePort } from "~/test/http-test-server";
import type { AppContext } from "./app-context";
import { loadConfig } from "./config";
import type { Logger } from "./logger";
import { startWebServer, type WebServer } from "./web";

// Two web processes on one PostgreSQL database, each with its page cache (decision 004): a change
// made through one drops the pages the other keeps. A one-route app stands in for the React build:
// GET /count answers how many stories are published, through the same page cache as every page.
const t = useTestDatabase();
const onPostgres = inject("testDatabase").kind === "postgres";
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const countBuild = {
  entry: { module: { default: () => new Response("documents are not part of this test", { status: 500 }) } },
  routes: {
    root: { id: "root", path: "", module: {} },
    count: {
      id: "count",
      parentId: "root",
      path: "count",
      module: {
        loader: async ({ context }: { context: AppContext }) =>
          new Response(String(await context.repos.publicStories.countPublished()), { headers: { "Content-Type": "text/plain" } }),
      },
    },
  },
  assets: { entry: { module: "", imports: [] }, routes: {}, url: "", version: "1" },
  publicPath: "/",
  assetsBuildDirectory: os.tmpdir(),
  future: {},
  ssr: true,
  isSpaMode: false,
  prerender: [],
  routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
} as unknown as ServerBuild;

async function startProcess(database: Database): Promise<WebServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "oddwire-page-changes-"));
  dirs.push(dataDir);
  const config = loadConfig({ NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, AUTH_SECRET: "a-test-secret-that-is-long-enough-0123456789" });
  // A minute-long cache: without a notice, the other process would answer its copy all through the test.
  return startWebServer({ config, database, logger: pino({ level: "silent" }) as Logger, build: countBuild, pageCacheTtlMs: 60_000 });
}

async function count(server: WebServer): Promise<{ body: string; cache: string | null }> {
  const response = await fetch(`${server.url}/count`);
  return { body: await response.text(), cache: response.headers.get("x-cache") };
}

describe.runIf(onPostgres)("public pages across web processes", () => {
  test("a change made through one web process drops the page another keeps, within moments", async () => {
    const one = await startProcess(t.database);
    const other = await startProcess(await t.openAnother());
    try {
      expect(await count(other)).toEqual({ body: "0", cache: "MISS" });
      expect(await count(other)).toEqual({ body: "0", cache: "HIT" });
      await makeStory(t.db, { status: "published" });
      // The other process still answers what it keeps...
      expect(await count(other)).toEqual({ body: "0", cache: "HIT" });
      // ...until the process that made the change says so.
      one.invalidatePublicPages();
      const deadline = Date.now() + 5_000;
      let seen = await count(other);
      while (seen.body !== "1" && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        seen = await count(other);
      }
      expect(seen).toEqual({ body: "1", cache: "MISS" });
    } finally {
      await one.close();
      await other.close();
    }
  });
});
