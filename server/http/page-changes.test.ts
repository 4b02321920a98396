import { describe, expect, test } from "vitest";
import type { Database } from "~/db/client";
import { makeCategory, makeStory } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { reaching } from "~/test/reaching";
import { startTestWebServer, testServerBuild } from "~/test/web-server";
import type { AppContext } from "../app-context";
import type { WebServer } from "./web";

// Two web processes on one PostgreSQL database, each with its page cache (decision 004): a change
// made through one drops the pages the other keeps. A one-route app stands in for the React build:
// GET /count answers how many stories are published, through the same page cache as every page.
const t = testDatabaseForFile();

const countBuild = testServerBuild({
  entry: { module: { default: () => new Response("documents are not part of this test", { status: 500 }) } },
  routes: {
    root: { id: "root", path: "", module: {} },
    count: {
      id: "count",
      parentId: "root",
      path: "count",
      module: {
        loader: async ({ context }: { context: AppContext }) =>
          new Response(String((await context.repos.stories.countByStatus()).published), { headers: { "Content-Type": "text/plain" } }),
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
});

/** A web process on `database`, with a minute-long page cache: without a notice, another process would answer its copy all through the test. */
const startProcess = (database: Database) => startTestWebServer(database, countBuild);

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

  test("are dropped in another web process when one tells of a change", async () => {
    await makeCategory(t.db, { name: "Animals", slug: "animals", displayOrder: 1 });
    const one = await startProcess(t.database);
    const other = await startProcess(await t.openAnother());
    try {
      expect(await categoriesSeen(other, 1)).toBe("animals");
      await makeCategory(t.db, { name: "Ghosts", slug: "ghosts", displayOrder: 2 });
      expect(await categoriesSeen(other, 2)).toBe("animals");
      one.invalidatePublicPages();
      // The notice reaches the other process moments later: each look is a page of its own.
      let n = 2;
      await expect.poll(() => categoriesSeen(other, ++n), { timeout: 5_000, interval: 25 }).toBe("animals,ghosts");
    } finally {
      await one.close();
      await other.close();
    }
  });
});

describe("public pages across web processes", () => {
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
      // The first answer with the new count is rendered afresh, not a copy.
      const seen = await reaching(() => count(other), (answer) => answer.body === "1", "the other process to answer the new count", 5_000);
      expect(seen).toEqual({ body: "1", cache: "MISS" });
    } finally {
      await one.close();
      await other.close();
    }
  });
});
