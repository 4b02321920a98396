import { capturedLog } from "~/test/captured-log";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { sources, urlQueue } from "~/db/schema";
import { makeSource } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { runIngestionCycle } from "~/domain/ingestion/ingest";
import { testHttpClient } from "~/integrations/http/testing";
import type { HttpClient } from "~/integrations/http/types";
import { rssFeed, startTestServer, type TestServer } from "~/test/http-test-server";
import type { JobRunner } from "./runner";
import { startFeedAndCrawlWorker } from "./testing";

// What a job run leaves in the log an operator reads (info and above): one line with its outcome,
// whatever the work did inside. Every line is kept, debug too, so a test sees what was held back.
const t = testDatabaseForFile();
type Line = { level: number; msg: string; jobId?: string; kind?: string; outcome?: string; durationMs?: number; result?: Record<string, unknown> | null };
const { logger, lines } = capturedLog<Line>();
const INFO = 30;
let site: TestServer;
let http: HttpClient;
let runner: JobRunner | undefined;

beforeAll(async () => {
  site = await startTestServer();
  http = testHttpClient();
  site.handle("/robots.txt", (_req, res) => res.writeHead(404).end());
  site.handle("/sitemap.xml", (_req, res) =>
    res
      .writeHead(200, { "content-type": "application/xml" })
      .end(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${site.url}/a</loc></url><url><loc>${site.url}/b</loc></url></urlset>`),
  );
  site.handle("/gone.xml", (_req, res) => res.writeHead(500).end("down"));
  site.handle("/odd.xml", (_req, res) =>
    res.writeHead(200, { "content-type": "application/rss+xml" }).end(
      rssFeed([
        { title: "Goat elected mayor", link: "https://odd.example/goat" },
        { title: "Llama opens a bakery", link: "https://odd.example/llama" },
      ]),
    ),
  );
});
afterAll(async () => {
  await http.close();
  await site.close();
});
afterEach(async () => {
  await runner?.stop();
  runner = undefined;
  lines.length = 0;
});

async function startWorker() {
  runner = await startFeedAndCrawlWorker({ database: t.database, repos: t.repos, http, logger });
  return runner;
}

/** Runs a job to its end and returns the lines at info and above written from its queueing on. */
async function runAndRead(worker: JobRunner, start: () => Promise<{ jobId: string }>) {
  const from = lines.length;
  const { jobId } = await start();
  await expect.poll(() => lines.some((l) => l.jobId === jobId && /^job (succeeded|failed|cancelled)$/.test(l.msg)), { timeout: 15_000 }).toBe(true);
  return { jobId, loud: lines.slice(from).filter((l) => l.level >= INFO) };
}

describe("a job run in the log", () => {
  test("an RSS ingestion writes one info line: its kind, id, outcome, duration and counts", async () => {
    await makeSource(t.db, { sourceType: "rss", rssFeedUrl: `${site.url}/odd.xml` });
    const worker = await startWorker();
    const { jobId, loud } = await runAndRead(worker, () => worker.enqueue("rss-ingestion", { use_canonical: false }));
    expect(loud).toEqual([
      expect.objectContaining({
        level: INFO,
        msg: "job succeeded",
        jobId,
        kind: "rss-ingestion",
        outcome: "succeeded",
        durationMs: expect.any(Number),
        result: { sources_processed: 1, total_items_found: 2, total_items_processed: 2 },
      }),
    ]);
    // What the cycle did per source is still there for whoever turns on debug.
    expect(lines.filter((l) => l.msg === "feed ingested")).toHaveLength(1);
  });

  test("a discovery and a queue scrape write one info line each, with counts and without their lists", async () => {
    const source = await makeSource(t.db, { sourceType: "web_scraping", websiteUrl: site.url, rssFeedUrl: null, scrapingConfig: { crawlDelay: 0 } });
    const worker = await startWorker();
    const discovery = await runAndRead(worker, () => worker.enqueue("crawl-discovery", { source_id: source.id }));
    expect(discovery.loud).toEqual([
      expect.objectContaining({ level: INFO, msg: "job succeeded", jobId: discovery.jobId, kind: "crawl-discovery", outcome: "succeeded" }),
    ]);
    expect(discovery.loud[0]!.result).toEqual({ sources_processed: 1, found: 2, queued: 2, skipped_robots: 0, skipped_known: 0, errors: 0 });

    const ids = (await t.db.select({ id: urlQueue.id }).from(urlQueue)).map((r) => r.id);
    const scrape = await runAndRead(worker, () => worker.enqueue("scrape-queue", { ids }));
    // Both pages are 404 here: the failures are the run's outcome, not lines of their own.
    expect(scrape.loud).toEqual([
      expect.objectContaining({ level: INFO, msg: "job succeeded", jobId: scrape.jobId, kind: "scrape-queue", result: { succeeded: 0, failed: 2, rate_limited: 0, total: 2 } }),
    ]);
  });

  test("a job that fails writes one error line with its reason", async () => {
    const source = await makeSource(t.db, { sourceType: "web_scraping", websiteUrl: site.url, rssFeedUrl: null, scrapingConfig: { crawlDelay: 0 } });
    await t.db.update(sources).set({ leaseUntil: new Date(Date.now() + 60_000) }).where(eq(sources.id, source.id));
    const worker = await startWorker();
    const { jobId, loud } = await runAndRead(worker, () => worker.enqueue("crawl-discovery", { source_id: source.id }));
    expect(loud).toEqual([expect.objectContaining({ level: 50, msg: "job failed", jobId, kind: "crawl-discovery", outcome: "failed", durationMs: expect.any(Number) })]);
    expect(JSON.stringify(loud[0])).toContain("being discovered by another run");
  });

  test("a poll with nothing due stays out of the info log; one that ingested writes one line", async () => {
    const worker = await startWorker();
    const idle = lines.length;
    await worker.pollNow();
    // The three minute polls: feeds, crawling and triage.
    await expect.poll(() => lines.slice(idle).filter((l) => l.msg === "poll finished").length, { timeout: 15_000 }).toBe(3);
    expect(lines.slice(idle).filter((l) => l.level >= INFO)).toEqual([]);

    await makeSource(t.db, { sourceType: "rss", rssFeedUrl: `${site.url}/odd.xml`, nextCheckAt: null });
    const busy = lines.length;
    await worker.pollNow();
    await expect.poll(() => lines.slice(busy).filter((l) => l.msg === "poll finished").length, { timeout: 15_000 }).toBe(3);
    expect(lines.slice(busy).filter((l) => l.level >= INFO)).toEqual([
      expect.objectContaining({ level: INFO, msg: "poll finished", kind: "rss-poll", outcome: "succeeded", result: { sources_processed: 1, total_items_found: 2, total_items_processed: 2 } }),
    ]);
  });
});

describe("what an operator must act on", () => {
  test("a feed that keeps failing warns when it starts failing and when that marks it error, not at every retry", async () => {
    const source = await makeSource(t.db, { sourceType: "rss", rssFeedUrl: `${site.url}/gone.xml` });
    const warnings: { failures: number; status: string }[][] = [];
    for (let run = 1; run <= 5; run++) {
      const from = lines.length;
      expect(await runIngestionCycle({ repos: t.repos, http, logger }, { scope: "all" })).toMatchObject({ sources_processed: 1 });
      const loud = lines.slice(from).filter((l) => l.level >= INFO) as unknown as { msg: string; failures: number; status: string; sourceId: number }[];
      expect(loud.every((l) => l.msg === "feed ingestion failed" && l.sourceId === source.id)).toBe(true);
      warnings.push(loud.map(({ failures, status }) => ({ failures, status })));
    }
    expect(warnings).toEqual([[{ failures: 1, status: "active" }], [], [{ failures: 3, status: "error" }], [], []]);
    // Every failure is still written, at debug.
    expect(lines.filter((l) => l.msg === "feed ingestion failed")).toHaveLength(5);
  });
});
