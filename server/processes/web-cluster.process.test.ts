import type { ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { openDatabase } from "~/db/client";
import { makeCategory, makeStory } from "~/db/testing/factories";
import { adminUrl, createDatabaseSql, dropDatabaseSql } from "~/db/testing/postgres-admin";
import { PAGE_COPIES_DIR } from "../http/web";
import { PROJECT_ROOT } from "~/lib/project-root";
import { startOddwire, type OddwireProcess } from "~/test/oddwire-process";
import { reaching } from "~/test/reaching";
import { tempDir } from "~/test/temp-dir";
import { ensureWebBuild, getAlone, webProcessesOf } from "~/test/web-processes";

// `serve` on PostgreSQL with WEB_CONCURRENCY=2, as production runs it: a primary and two web
// processes sharing the port (node:cluster). One server for the whole file; the tests run in order.
const spec = inject("testDatabase");
const METRICS_TOKEN = "a-metrics-token-for-the-cluster-test";




describe("the site served by several web processes", () => {
  const name = `oddwire_cluster_${process.pid}`;
  const dataDir = tempDir("oddwire-cluster-");
  let serve: OddwireProcess;
  let primary: ChildProcess;
  const output = () => serve.output();
  let base = "";

  beforeAll(async () => {
    // The web processes serve the production build: made here when missing or older than the sources.
    ensureWebBuild();
    const admin = await openDatabase({ databaseUrl: spec.url, poolSize: 1 });
    await admin.exec(dropDatabaseSql(name));
    await admin.exec(createDatabaseSql(name));
    await admin.close();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: adminUrl(spec.url, name),
      AUTH_SECRET: "a-test-secret-that-is-long-enough-0123456789",
      DATA_DIR: dataDir,
      PORT: "0",
      HOST: "127.0.0.1",
      ROLE: "web",
      WEB_CONCURRENCY: "2",
      METRICS_TOKEN,
      LOG_LEVEL: "info",
    };
    delete env.MALLOC_ARENA_MAX;
    serve = startOddwire(["serve"], env);
    primary = serve.child;
    const [, url] = await serve.printed(/Oddwire is serving on (http:\/\/\S+?)"/, "the site to be served", 60_000);
    base = url!.replace("localhost", "127.0.0.1");
  }, 180_000);

  afterAll(async () => {
    if (primary && primary.exitCode === null) {
      primary.kill("SIGKILL");
      for (const pid of webProcessesOf(primary.pid!)) process.kill(pid, "SIGKILL");
    }
    rmSync(dataDir, { recursive: true, force: true });
    const admin = await openDatabase({ databaseUrl: spec.url, poolSize: 1 });
    await admin.exec(dropDatabaseSql(name));
    await admin.close();
  }, 60_000);

  test("WEB_CONCURRENCY web processes answer on one port, and the site says it is served once", async () => {
    expect(webProcessesOf(primary.pid!)).toHaveLength(2);
    expect(output().match(/Oddwire is serving on/g)).toHaveLength(1);
    expect((await getAlone(`${base}/`)).status).toBe(200);
    expect((await getAlone(`${base}/healthz`)).status).toBe(200);
  });

  test("the primary and its web processes run the server bundle, not the TypeScript sources (decision 018)", () => {
    expect(output()).toMatch(/"code":"bundle"[^\n]*Oddwire is serving on/);
    const environ = (pid: number) => readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
    for (const pid of webProcessesOf(primary.pid!)) expect(environ(pid)).toContain("ODDWIRE_SERVER_BUNDLE=1");
  });

  test("the build they serve is React's production build, though the build was asked for under a test runner's NODE_ENV", () => {
    // beforeAll ran scripts/ensure-build.mjs with Vitest's NODE_ENV=test in its environment.
    const assets = path.join(PROJECT_ROOT, "build", "client", "assets");
    const entry = readdirSync(assets).find((name) => /^entry\.client-.*\.js$/.test(name));
    expect(entry).toBeDefined();
    expect(readFileSync(path.join(assets, entry!), "utf8")).not.toContain("Download the React DevTools");
  });

  test("web processes keep to two malloc arenas, unless MALLOC_ARENA_MAX says otherwise", () => {
    const environ = (pid: number) => readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
    for (const pid of webProcessesOf(primary.pid!)) expect(environ(pid)).toContain("MALLOC_ARENA_MAX=2");
    expect(environ(primary.pid!).some((line) => line.startsWith("MALLOC_ARENA_MAX="))).toBe(false);
  });

  test("a client's search allowance is one for all the web processes", async () => {
    // 35 searches at once, each a new query (so each reaches the database) on a new connection: with
    // an allowance per process, two processes would let 60 through.
    const answers = await Promise.all(Array.from({ length: 35 }, (_, i) => getAlone(`${base}/search?q=${encodeURIComponent(`cluster word ${i}`)}`)));
    const refused = answers.filter((a) => a.status === 429).length;
    expect(answers.filter((a) => a.status !== 200 && a.status !== 429)).toEqual([]);
    // 30 at once, and one more each second the searches took.
    expect(refused).toBeGreaterThanOrEqual(3);
  });

  test("/metrics counts the requests every web process answered", async () => {
    const before = await requestsCounted();
    for (let i = 0; i < 6; i++) expect((await getAlone(`${base}/readyz`)).status).toBe(200);
    expect((await requestsCounted()) - before).toBe(6);
  });

  test("a web process that dies is replaced", async () => {
    const [victim] = webProcessesOf(primary.pid!);
    process.kill(victim!, "SIGKILL");
    await reaching(() => webProcessesOf(primary.pid!), (now) => now.length === 2 && !now.includes(victim!), "a replacement web process", 60_000);
    expect(output()).toContain("a web process ended; starting another");
    await expect.poll(output, { timeout: 60_000, message: "the replacement to serve" }).toContain("the replacement web process is serving");
    // Both answer: six requests in a row, each handed to the next process.
    for (let i = 0; i < 6; i++) expect((await getAlone(`${base}/healthz`)).status).toBe(200);
  });

  test("while the database is away, a category and a story page one web process rendered are served, the same, by both", async () => {
    const site = await openDatabase({ databaseUrl: adminUrl(spec.url, name), poolSize: 1 });
    const category = await makeCategory(site.db, { name: "Cluster outage", slug: "cluster-outage", displayOrder: 98 });
    const story = await makeStory(site.db, { categoryId: category.id, title: "A heron guarded the server room" });
    await site.close();
    const pages = ["/category/cluster-outage", `/story/${story.slug}`];
    // Each rendered once, by whichever web process takes the request, and its copy written.
    const rendered = new Map<string, string>();
    for (const page of pages) {
      const answer = await getAlone(`${base}${page}`);
      expect(answer.status).toBe(200);
      rendered.set(page, answer.body);
      const copy = path.join(dataDir, PAGE_COPIES_DIR, `${createHash("sha256").update(page).digest("hex")}.page`);
      await expect.poll(() => existsSync(copy), { timeout: 60_000, message: "the page's copy to be written" }).toBe(true);
    }
    // The database refuses connections and ends every open one.
    const admin = await openDatabase({ databaseUrl: spec.url, poolSize: 1 });
    await admin.exec(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
    try {
      await admin.exec(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}'`);
      // Requests on connections of their own go to each web process in turn: six per page reach both.
      for (const page of pages) {
        for (let i = 0; i < 6; i++) {
          const answer = await getAlone(`${base}${page}`);
          expect({ page, status: answer.status }).toEqual({ page, status: 200 });
          expect(answer.body).toBe(rendered.get(page));
        }
      }
    } finally {
      await admin.exec(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS true`);
      await admin.close();
    }
    // Back: both web processes answer from the database again.
    await expect
      .poll(async () => (await Promise.all(Array.from({ length: 4 }, () => getAlone(`${base}/healthz`)))).map((answer) => answer.status), {
        timeout: 60_000,
        message: "both web processes to be healthy again",
      })
      .toEqual([200, 200, 200, 200]);
  });

  test("SIGTERM stops the web processes and then the primary, cleanly", async () => {
    const web = webProcessesOf(primary.pid!);
    const from = output().length;
    primary.kill("SIGTERM");
    expect((await serve.exited).code).toBe(0);
    for (const pid of web) expect(() => process.kill(pid, 0)).toThrow();
    // The primary and both web processes said so; nothing went wrong on the way.
    const said = output().slice(from);
    expect(said.match(/"msg":"stopped"/g)).toHaveLength(3);
    expect(said).not.toContain('"level":50');
  });

  async function requestsCounted(): Promise<number> {
    const metrics = await getAlone(`${base}/metrics`, { authorization: `Bearer ${METRICS_TOKEN}` });
    expect(metrics.status).toBe(200);
    const line = metrics.body.split("\n").find((l) => l.startsWith('oddwire_http_requests_total{route="/readyz",method="GET",status="200"}'));
    return line ? Number(line.split(" ").pop()) : 0;
  }
});
