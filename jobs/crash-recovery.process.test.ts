import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { eq, inArray } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, inject, test } from "vitest";
import { openDatabase, type Database } from "~/db/client";
import { createRepos } from "~/db/repos";
import { jobs, sources, stories, urlQueue } from "~/db/schema";
import { makeSource, makeStory, makeUrlQueueItem } from "~/db/testing/factories";
import { adminUrl, createDatabaseSql, dropDatabaseSql } from "~/db/testing/postgres-admin";
import { startTestWorker } from "~/test/job-worker";
import { startTestServer, type TestServer } from "~/test/http-test-server";
import { createJobRunner, type JobRunner } from "./runner";
import type { JobKind } from "./types";

/*
 * Each job kind, killed (SIGKILL) in a real worker process mid-run, is ended and taken up again by a
 * live worker from where it stopped: what the dead process stored is not done again, and nothing is
 * lost. The processes share a database of their own on the test run's server.
 */

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const WORKER = path.join(ROOT, "test", "job-worker-process.ts");
const LEASE_MS = 2_000;
const spec = inject("testDatabase");

type SharedDatabase = { env: Record<string, string>; open(): Promise<Database>; dispose(): Promise<void> };

async function sharedDatabase(): Promise<SharedDatabase> {
  const name = `oddwire_crash_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = await openDatabase({ databaseUrl: spec.url, poolSize: 1 });
  await admin.exec(createDatabaseSql(name, spec.template));
  const url = adminUrl(spec.url, name);
  return {
    env: { DATABASE_URL: url },
    open: () => openDatabase({ databaseUrl: url, poolSize: 4 }),
    async dispose() {
      await admin.exec(dropDatabaseSql(name));
      await admin.close();
    },
  };
}

let shared: SharedDatabase;
let site: TestServer;
const children: ChildProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];
/** Requests held open until the test lets them go (the work a worker is killed in the middle of). */
let holding = true;
const held: ServerResponse[] = [];
/** Every URL the site was asked for, with its query, in order. */
const asked: string[] = [];

beforeAll(async () => {
  site = await startTestServer();
});
afterAll(async () => {
  await site.close();
});
afterEach(async () => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  holding = true;
  for (const res of held.splice(0)) res.destroy();
  asked.length = 0;
});

/** Answers `/path?n=N` at once for N below `from`, and holds the rest while `holding` (then answers them too). */
function serve(pathname: string, from: number, answer: (n: number, res: ServerResponse) => void) {
  site.handle(pathname, (req, res) => {
    const url = new URL(req.url ?? "/", site.url);
    asked.push(`${url.pathname}${url.search}`);
    const n = Number(url.searchParams.get("n") ?? 0);
    if (n >= from && holding) return void held.push(res);
    answer(n, res);
  });
}

const article = (n: number) =>
  `<html><head><title>Odd event number ${n}</title><meta property="og:image" content="${site.url}/photo.png?n=${n}"></head>` +
  `<body><article><h1>Odd event number ${n}</h1>${"<p>A goat walked into a town hall and asked to be heard. Nobody knew what to say to it.</p>".repeat(6)}</article></body></html>`;
// A 1x1 PNG: big enough to be a picture, small enough not to matter.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");

/** Prepares the database with `seed`, queues `kind` and starts a worker process on it; returns the job's id. */
async function startWorkerWithJob(
  kind: JobKind | "minute poll",
  seed: (database: Database) => Promise<Record<string, unknown>>,
): Promise<{ jobId: string; worker: ChildProcess; stored: () => number }> {
  shared = await sharedDatabase();
  cleanups.push(() => shared.dispose());
  const database = await shared.open();
  const input = await seed(database);
  const sender = await createJobRunner({ database, logger: silent, pollSchedule: null });
  await sender.start();
  const jobId = kind === "minute poll" ? (await sender.pollNow(), "poll") : (await sender.enqueue(kind, input)).jobId;
  await sender.stop();
  // The embedded database is held by one process at a time: the worker's now.
  await database.close();
  const env = { ...process.env, ...shared.env, LEASE_MS: String(LEASE_MS) } as NodeJS.ProcessEnv;
  if (!shared.env.DATABASE_URL) delete env.DATABASE_URL;
  const worker = spawn(process.execPath, ["--import", "tsx", WORKER], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  children.push(worker);
  let output = "";
  worker.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  worker.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await expect.poll(() => output, { timeout: 60_000, interval: 100 }).toContain("worker ready");
  // The items the job reported done, each stored before it is reported.
  const stored = () => Math.max(0, ...[...output.matchAll(new RegExp(`^progress ${jobId} (\\d+)/`, "gm"))].map((m) => Number(m[1])));
  return { jobId, worker, stored };
}

/** Kills the worker with SIGKILL once `ready` holds, and lets the held requests go. */
async function killWhen(worker: ChildProcess, ready: () => boolean) {
  await expect.poll(ready, { timeout: 60_000, interval: 50 }).toBe(true);
  const exited = new Promise((resolve) => worker.once("exit", resolve));
  worker.kill("SIGKILL");
  await exited;
  holding = false;
  for (const res of held.splice(0)) res.destroy();
}

/** A live worker in this process, on the database the dead one used; returns its database and runner. */
async function liveWorker(): Promise<{ database: Database; runner: JobRunner }> {
  const database = await shared.open();
  const worker = await startTestWorker(database, { leaseMs: LEASE_MS });
  cleanups.push(async () => {
    await worker.stop();
    await database.close();
  });
  return { database, runner: worker.runner };
}

/** The job that took up `jobId`'s work, once it has ended. */
async function successorOf(database: Database, jobId: string) {
  let successor: typeof jobs.$inferSelect | undefined;
  await expect
    .poll(
      async () => {
        const rows = await database.db.select().from(jobs);
        successor = rows.find((row) => row.input?.resumed_from === jobId);
        return successor?.status;
      },
      { timeout: 60_000, interval: 200 },
    )
    .toMatch(/succeeded|failed|cancelled/);
  return successor!;
}

const silent = (await import("pino")).default({ level: "silent" });

describe.sequential("a worker killed mid-job", () => {
  test("image enhancement at 4 of 8: the job is ended, taken up again, and does only the 4 left", async () => {
    serve("/article", 4, (n, res) => res.writeHead(200, { "content-type": "text/html" }).end(article(n)));
    serve("/photo.png", 99, (_n, res) => res.writeHead(200, { "content-type": "image/png" }).end(PNG));
    const { jobId, worker, stored } = await startWorkerWithJob("enhance-images", async (database) => {
      const ids: number[] = [];
      for (let n = 0; n < 8; n++) ids.push((await makeStory(database.db, { imageUrl: null, originalUrl: `${site.url}/article?n=${n}` })).id);
      return { storyIds: ids, batchSize: 8 };
    });
    await killWhen(worker, () => stored() >= 4 && held.length > 0);
    const askedBeforeKill = asked.length;

    const { database, runner } = await liveWorker();
    const checked = (await database.db.select().from(stories)).filter((s) => s.imageCheckedAt !== null).map((s) => s.originalUrl);
    // Each story's outcome was stored as it went: the dead process's work is kept.
    expect(checked.length).toBeGreaterThanOrEqual(4);
    const successor = await successorOf(database, jobId);
    const [dead] = await database.db.select().from(jobs).where(eq(jobs.id, jobId));
    expect(dead).toMatchObject({ status: "failed", error: expect.stringMatching(/^The job was interrupted/) });
    expect(successor.status).toBe("succeeded");
    expect(successor.result).toMatchObject({ processed: 8 - checked.length });
    // A page that follows the job it started is shown the job doing the rest.
    expect((await runner.get(jobId))?.id).toBe(successor.id);
    // Nothing the dead process had stored was fetched again.
    const askedAfter = asked.slice(askedBeforeKill);
    for (const url of checked) expect(askedAfter).not.toContain(new URL(url!).pathname + new URL(url!).search);
    expect((await database.db.select().from(stories)).every((s) => s.imageCheckedAt !== null)).toBe(true);
    // A new run is no longer refused as "already running".
    expect(await createRepos(database.db).jobs.latestUnfinished("enhance-images")).toBeNull();
  }, 120_000);

  test("a URL Que scrape at 6 of 12: the pages read are stored, and the rest are scraped once", async () => {
    serve("/article", 6, (n, res) => res.writeHead(200, { "content-type": "text/html" }).end(article(n)));
    site.handle("/robots.txt", (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nAllow: /\n"));
    const { jobId, worker, stored } = await startWorkerWithJob("scrape-queue", async (database) => {
      const source = await makeSource(database.db, {
        sourceType: "web_scraping",
        websiteUrl: site.url,
        rssFeedUrl: null,
        scrapingConfig: { crawlDelay: 0 },
      });
      const ids: number[] = [];
      for (let n = 0; n < 12; n++) ids.push((await makeUrlQueueItem(database.db, { url: `${site.url}/article?n=${n}`, sourceId: source.id })).id);
      return { ids };
    });
    await killWhen(worker, () => stored() >= 6 && held.length > 0);
    const askedBeforeKill = asked.length;

    const { database } = await liveWorker();
    const scraped = (await database.db.select().from(urlQueue).where(eq(urlQueue.status, "scraped"))).map((row) => row.url);
    expect(scraped.length).toBe(6);
    expect((await database.db.select().from(stories)).length).toBe(scraped.length);
    const successor = await successorOf(database, jobId);
    expect(successor.status).toBe("succeeded");
    expect(successor.result).toMatchObject({ total: 12 - scraped.length, succeeded: 12 - scraped.length });
    const askedAfter = asked.slice(askedBeforeKill);
    for (const url of scraped) expect(askedAfter).not.toContain(new URL(url).pathname + new URL(url).search);
    // Every URL became exactly one story; none is left queued.
    const all = await database.db.select().from(stories);
    expect(all).toHaveLength(12);
    expect(new Set(all.map((s) => s.urlHash)).size).toBe(12);
    expect(
      await database.db
        .select()
        .from(urlQueue)
        .where(inArray(urlQueue.status, ["queued", "failed"])),
    ).toHaveLength(0);
  }, 120_000);

  test("discovery of three sites, killed on the third: the third is discovered by the job taken up again, the first two are not read again", async () => {
    site.handle("/robots.txt", (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nAllow: /\n"));
    // Each source reads its own start page, which links to three stories.
    const section = (n: number) =>
      `<html><body>${[1, 2, 3].map((i) => `<a href="/news/site-${n}-story-${i}">Story ${i}</a>`).join(" ")}</body></html>`;
    serve("/section", 2, (n, res) => res.writeHead(200, { "content-type": "text/html" }).end(section(n)));
    let sourceIds: number[] = [];
    const { jobId, worker, stored } = await startWorkerWithJob("crawl-discovery", async (database) => {
      sourceIds = [];
      for (let n = 0; n < 3; n++) {
        const source = await makeSource(database.db, {
          sourceType: "web_scraping",
          websiteUrl: site.url,
          rssFeedUrl: null,
          scrapingConfig: { startUrls: [`${site.url}/section?n=${n}`], crawlDelay: 0 },
        });
        sourceIds.push(source.id);
      }
      return {};
    });
    await killWhen(worker, () => stored() >= 2 && held.length > 0);
    const askedBeforeKill = asked.length;

    const { database, runner } = await liveWorker();
    const discovered = (await database.db.select().from(sources)).filter((s) => s.lastFetchedAt !== null).map((s) => s.id);
    expect(discovered).toHaveLength(2);
    const successor = await successorOf(database, jobId);
    expect(successor.status).toBe("succeeded");
    expect(successor.result).toMatchObject({ sources_processed: 3 - discovered.length });
    const askedAfter = asked.slice(askedBeforeKill);
    for (const id of discovered) expect(askedAfter).not.toContain(`/section?n=${sourceIds.indexOf(id)}`);
    expect(await database.db.select().from(urlQueue)).toHaveLength(9);
    // 'Discover now' of the source the dead process held is not refused.
    const again = await runner.enqueue("crawl-discovery", { source_id: sourceIds[2] });
    await expect.poll(async () => (await runner.get(again.jobId))?.status, { timeout: 30_000 }).toBe("succeeded");
  }, 120_000);

  test("RSS ingestion of three feeds, killed on the third: only the third is fetched again", async () => {
    const feed = (n: number) =>
      `<?xml version="1.0"?><rss version="2.0"><channel><title>Feed ${n}</title><link>${site.url}/</link><description>Odd</description>${[1, 2]
        .map(
          (i) =>
            `<item><title>Odd item ${n}.${i}</title><link>${site.url}/item-${n}-${i}</link><description>Something odd happened, number ${n}.${i}.</description></item>`,
        )
        .join("")}</channel></rss>`;
    serve("/feed.xml", 2, (n, res) => res.writeHead(200, { "content-type": "application/rss+xml" }).end(feed(n)));
    const { jobId, worker, stored } = await startWorkerWithJob("rss-ingestion", async (database) => {
      for (let n = 0; n < 3; n++)
        await makeSource(database.db, { sourceType: "rss", websiteUrl: site.url, rssFeedUrl: `${site.url}/feed.xml?n=${n}` });
      return {};
    });
    await killWhen(worker, () => stored() >= 2 && held.length > 0);
    const askedBeforeKill = asked.length;

    const { database } = await liveWorker();
    const fetched = (await database.db.select().from(sources)).filter((s) => s.lastFetchedAt !== null).map((s) => s.rssFeedUrl!);
    expect(fetched).toHaveLength(2);
    const successor = await successorOf(database, jobId);
    expect(successor.status).toBe("succeeded");
    expect(successor.result).toMatchObject({ sources_processed: 3 - fetched.length });
    const askedAfter = asked.slice(askedBeforeKill);
    for (const url of fetched) expect(askedAfter).not.toContain(new URL(url).pathname + new URL(url).search);
    const all = await database.db.select().from(stories);
    expect(all).toHaveLength(6);
  }, 120_000);

  test("Cancel ends a job whose process is gone: at once, and it is not taken up again", async () => {
    serve("/article", 0, (n, res) => res.writeHead(200, { "content-type": "text/html" }).end(article(n)));
    const { jobId, worker } = await startWorkerWithJob("enhance-images", async (database) => {
      const ids: number[] = [];
      for (let n = 0; n < 3; n++) ids.push((await makeStory(database.db, { imageUrl: null, originalUrl: `${site.url}/article?n=${n}` })).id);
      return { storyIds: ids, batchSize: 3 };
    });
    await killWhen(worker, () => held.length > 0);

    // A web process, which runs no jobs, is asked to cancel once the dead job's lease has lapsed.
    const database = await shared.open();
    cleanups.push(() => database.close());
    const web = await createJobRunner({ database, logger: silent, pollSchedule: null });
    await web.start();
    cleanups.push(() => web.stop());
    await expect
      .poll(async () => (await database.db.select().from(jobs).where(eq(jobs.id, jobId)))[0]!.leaseUntil! < new Date(), { timeout: 10_000 })
      .toBe(true);
    expect(await web.cancel(jobId)).toBe(true);
    expect(await web.get(jobId)).toMatchObject({ status: "cancelled" });
    expect(await web.latestUnfinished("enhance-images")).toBeNull();

    // A worker that starts afterwards finds nothing to take up.
    const worker2 = await startTestWorker(database, { leaseMs: LEASE_MS });
    cleanups.push(() => worker2.stop());
    // Nothing must happen here: the window is two leases, in which a worker would have resumed an orphan.
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS * 2));
    expect((await database.db.select().from(jobs)).filter((row) => row.input?.resumed_from === jobId)).toHaveLength(0);
  }, 120_000);

  test("a minute poll killed mid-run no longer holds up the next one: its queue entry expires with its lease", async () => {
    const feed = `<?xml version="1.0"?><rss version="2.0"><channel><title>Feed</title><link>${site.url}/</link><description>Odd</description><item><title>Odd item</title><link>${site.url}/polled-item</link><description>Something odd.</description></item></channel></rss>`;
    serve("/feed.xml", 0, (_n, res) => res.writeHead(200, { "content-type": "application/rss+xml" }).end(feed));
    const { worker } = await startWorkerWithJob("minute poll", async (database) => {
      await makeSource(database.db, { sourceType: "rss", websiteUrl: site.url, rssFeedUrl: `${site.url}/feed.xml?n=0` });
      return {};
    });
    await killWhen(worker, () => held.length > 0);
    const askedBeforeKill = asked.length;

    // The next poll (queues hold one running poll at a time) runs once the dead one's entry expired.
    const { database, runner } = await liveWorker();
    await runner.pollNow();
    await expect.poll(() => asked.slice(askedBeforeKill).includes("/feed.xml?n=0"), { timeout: 60_000, interval: 200 }).toBe(true);
    await expect.poll(async () => (await database.db.select().from(stories)).length, { timeout: 30_000 }).toBe(1);
  }, 120_000);
});
