import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import type { ServerBuild } from "react-router";
import { afterAll, describe, expect, inject, test } from "vitest";
import type { Database } from "~/db/client";
import { makeCategory, makeStory } from "~/db/testing/factories";
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
    categories: {
      id: "categories",
      parentId: "root",
      path: "categories",
      module: {
        loader: async ({ context }: { context: AppContext }) =>
          new Response((await context.publicRepos.categories.listAll()).map((c) => c.slug).join(","), { headers: { "Content-Type": "text/plain" } }),
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

/** The categories a public page reads, rendered afresh: each `n` is a page of its own in the page cache. */
async function categoriesSeen(server: WebServer, n: number): Promise<string> {
  const response = await fetch(`${server.url}/categories?n=${n}`);
  expect(response.headers.get("x-cache")).toBe("MISS");
  return response.text();
}

describe("the categories public pages read", () => {
  test("are kept by the web process as long as a page, and dropped with its pages when an editor changes something", async () => {
    await makeCategory(t.db, { name: "Animals", slug: "animals", displayOrder: 1 });
    const server = await startProcess(t.database);
    try {
      expect(await categoriesSeen(server, 1)).toBe("animals");
      await makeCategory(t.db, { name: "Ghosts", slug: "ghosts", displayOrder: 2 });
      // Another page rendered meanwhile reads the copy kept...
      expect(await categoriesSeen(server, 2)).toBe("animals");
      // ...until the pages are dropped.
      server.invalidatePublicPages();
      expect(await categoriesSeen(server, 3)).toBe("animals,ghosts");
    } finally {
      await server.close();
    }
  });

  test.runIf(onPostgres)("are dropped in another web process when one tells of a change", async () => {
    await makeCategory(t.db, { name: "Animals", slug: "animals", displayOrder: 1 });
    const one = await startProcess(t.database);
    const other = await startProcess(await t.openAnother());
    try {
      expect(await categoriesSeen(other, 1)).toBe("animals");
      await makeCategory(t.db, { name: "Ghosts", slug: "ghosts", displayOrder: 2 });
      expect(await categoriesSeen(other, 2)).toBe("animals");
      one.invalidatePublicPages();
      const deadline = Date.now() + 5_000;
      let n = 3;
      let seen = await categoriesSeen(other, n);
      while (seen !== "animals,ghosts" && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        seen = await categoriesSeen(other, ++n);
      }
      expect(seen).toBe("animals,ghosts");
    } finally {
      await one.close();
      await other.close();
    }
  });
});

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
