import { readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { makeStory } from "~/db/testing/factories";
import { openTestDatabase } from "~/db/testing/test-database";
import { startTestWebServer, testServerBuild } from "~/test/web-server";
import type { AppContext } from "../app-context";
import { PAGE_COPIES_DIR, type WebServer } from "./web";
import { tempDir } from "~/test/temp-dir";

// Web servers sharing a DATA_DIR, on the embedded database or PostgreSQL (TEST_DATABASE_URL), with a
// one-route app standing in for the React build: GET /count answers how many stories are published.
// The database is closed under them, so that every query fails as in an outage.
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
          new Response(`${(await context.repos.stories.countByStatus()).published} stories`, { headers: { "Content-Type": "text/plain" } }),
      },
    },
  },
  assets: { entry: { module: "", imports: [] }, routes: {}, url: "", version: "1" },
});

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serverOn(...args: Parameters<typeof startTestWebServer>): Promise<WebServer> {
  const server = await startTestWebServer(...args);
  cleanups.push(() => server.close());
  return server;
}

describe("the shared copies of public pages, served from DATA_DIR", () => {
  test("a page one server rendered is served by another on the same DATA_DIR, and by one started during the outage", async () => {
    const gone = await openTestDatabase();
    cleanups.push(() => gone.dispose());
    const dataDir = tempDir("oddwire-page-copies-web-");
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    await makeStory(gone.database.db);
    await makeStory(gone.database.db);
    const one = await serverOn(gone.database, countBuild, { dataDir, pageCacheTtlMs: 2_000 });
    const other = await serverOn(gone.database, countBuild, { dataDir, pageCacheTtlMs: 2_000 });
    const rendered = await fetch(`${one.url}/count`);
    expect(await rendered.text()).toBe("2 stories");
    const copies = path.join(dataDir, PAGE_COPIES_DIR);
    await expect.poll(() => readdirSync(copies).filter((name) => name.endsWith(".page"))).toHaveLength(1);

    await gone.database.close();
    const restarted = await serverOn(gone.database, countBuild, { dataDir, pageCacheTtlMs: 2_000 });
    for (const server of [other, restarted]) {
      const answer = await fetch(`${server.url}/count`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("x-cache")).toBe("STALE-IF-ERROR");
      expect(answer.headers.get("etag")).toBe(rendered.headers.get("etag"));
      expect(await answer.text()).toBe("2 stories");
    }
    // A page no server rendered is the maintenance page.
    expect((await fetch(`${other.url}/count?page=2`)).status).toBe(503);
  });
});
