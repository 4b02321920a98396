import { readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { openDatabase, type Database } from "~/db/client";
import { makeCategory, makeStory } from "~/db/testing/factories";
import { adminUrl, createDatabaseSql, dropDatabaseSql } from "~/db/testing/postgres-admin";
import { freePort } from "~/test/http-test-server";
import { PAGE_COPIES_DIR } from "../http/web";
import { startOddwire, type OddwireProcess } from "~/test/oddwire-process";
import { reaching } from "~/test/reaching";
import { tempDir } from "~/test/temp-dir";
import { ensureWebBuild, getAlone, type Answer } from "~/test/web-processes";

// Two `serve` processes on one PostgreSQL database and one DATA_DIR, as two web processes of one
// machine, each on a port of its own so that the test says which answers. The database is taken away
// for real: connections to it are refused and every open one is ended, then allowed again.
const spec = inject("testDatabase");



describe("two web processes sharing a DATA_DIR, while the database is away", () => {
  const name = `oddwire_outage_${process.pid}`;
  const dataDir = tempDir("oddwire-outage-");
  const copiesDir = path.join(dataDir, PAGE_COPIES_DIR);
  const processes: { serve: OddwireProcess; base: string }[] = [];
  let admin: Database;
  let pages: string[] = [];
  let unrendered = "";

  /** Refuses new connections to the test's database and ends every open one: the database is gone. */
  const takeDatabaseAway = async () => {
    await admin.exec(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
    await admin.exec(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}'`);
  };
  const bringDatabaseBack = () => admin.exec(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS true`);
  /** How many connections listen for page-change notices (one per web process once it has reconnected). */
  const listeners = async () => {
    const { rows } = await admin.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND query LIKE 'LISTEN %'", [name]);
    return rows[0]?.n ?? 0;
  };

  const startServe = async (port: number) => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: adminUrl(spec.url, name),
      AUTH_SECRET: "a-test-secret-that-is-long-enough-0123456789",
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      ROLE: "web",
      WEB_CONCURRENCY: "1",
      LOG_LEVEL: "warn",
    };
    const serve = startOddwire(["serve"], env);
    const base = `http://127.0.0.1:${port}`;
    processes.push({ serve, base });
    await reaching(
      async () => {
        if (!serve.running()) throw new Error(`serve ended early:\n${serve.output()}`);
        return (await getAlone(`${base}/healthz`).catch(() => null))?.status;
      },
      (status) => status === 200,
      "the site to be served",
      120_000,
    );
    return base;
  };

  beforeAll(async () => {
    ensureWebBuild();
    admin = await openDatabase({ databaseUrl: spec.url, poolSize: 1 });
    await admin.exec(dropDatabaseSql(name));
    await admin.exec(createDatabaseSql(name));
    // One after the other: the first prepares the database (migrations, default categories).
    await startServe(await freePort());
    await startServe(await freePort());
    const site = await openDatabase({ databaseUrl: adminUrl(spec.url, name), poolSize: 1 });
    const category = await makeCategory(site.db, { name: "Outages", slug: "outages", displayOrder: 99 });
    const story = await makeStory(site.db, { categoryId: category.id, title: "A goat ran the power station" });
    const other = await makeStory(site.db, { categoryId: category.id, title: "A parrot read the meters" });
    await site.close();
    pages = ["/category/outages", `/story/${story.slug}`];
    unrendered = `/story/${other.slug}`;
  }, 240_000);

  afterAll(async () => {
    for (const { serve } of processes) if (serve.running()) serve.child.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
    await admin.exec(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS true`).catch(() => undefined);
    await admin.exec(dropDatabaseSql(name));
    await admin.close();
  }, 60_000);

  test("a category and a story page rendered by one process are served by both, the same, while the database is away, and again after a flap", async () => {
    const [one, other] = processes.map((p) => p.base) as [string, string];
    // Rendered once, by the first process only.
    const rendered = new Map<string, Answer>();
    for (const page of pages) {
      const answer = await getAlone(`${one}${page}`);
      expect(answer.status).toBe(200);
      expect(answer.cache).toBe("MISS");
      rendered.set(page, answer);
    }
    expect(rendered.get(pages[1]!)!.body).toContain("A goat ran the power station");
    // The copies are written once the answers have gone.
    await expect
      .poll(() => readdirSync(copiesDir).filter((f) => f.endsWith(".page")).length, { timeout: 60_000, message: "the copies to be written" })
      .toBeGreaterThanOrEqual(pages.length);

    const everyPageServedByBoth = async () => {
      for (const base of [other, one]) {
        for (const page of pages) {
          // Past the two seconds a page is fresh in memory, each request tries to render it.
          const answer = await reaching(() => getAlone(`${base}${page}`), (tried) => tried.cache !== "HIT", "the page to be rendered again", 60_000);
          expect({ base, page, status: answer.status, cache: answer.cache }).toEqual({ base, page, status: 200, cache: "STALE-IF-ERROR" });
          expect(answer.body).toBe(rendered.get(page)!.body);
          expect(answer.etag).toBe(rendered.get(page)!.etag);
        }
        // A page no process rendered has no copy: the maintenance page.
        expect((await getAlone(`${base}${unrendered}`)).status).toBe(503);
      }
    };

    await takeDatabaseAway();
    await everyPageServedByBoth();

    // A flap: the database comes back, each process's change listener reconnects (and drops its
    // pages in memory, as notices may have been missed), then the database goes away again.
    await bringDatabaseBack();
    await expect.poll(() => listeners(), { timeout: 60_000, message: "both change listeners to reconnect" }).toBe(2);
    await takeDatabaseAway();
    await everyPageServedByBoth();

    // Back for good: the pages are rendered again.
    await bringDatabaseBack();
    await expect.poll(async () => (await getAlone(`${other}${pages[0]}`)).cache, { timeout: 60_000, message: "the pages to render again" }).toBe("MISS");
  }, 180_000);
});
