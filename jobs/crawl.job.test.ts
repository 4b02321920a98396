import { eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { sources, urlQueue } from "~/db/schema";
import { makeSource } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { testHttpClient } from "~/integrations/http/testing";
import type { HttpClient } from "~/integrations/http/types";
import { startTestServer, type TestServer } from "~/test/http-test-server";
import type { JobRunner } from "./runner";
import type { JobView } from "./types";
import { startFeedAndCrawlWorker } from "./testing";
import { reaching } from "~/test/reaching";

const t = testDatabaseForFile();
const logger = pino({ level: "silent" });
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
});
afterAll(async () => {
  await http.close();
  await site.close();
});
afterEach(async () => {
  await runner?.stop();
  runner = undefined;
});

async function startWorker() {
  runner = await startFeedAndCrawlWorker({ database: t.database, repos: t.repos, http, logger });
  return runner;
}

const finished = (jobs: JobRunner, jobId: string) =>
  reaching(() => jobs.get(jobId), (job): job is JobView => job !== null && (job.status === "succeeded" || job.status === "failed"), `job ${jobId} to finish`);

describe("the crawl jobs", () => {
  test("'Discover now' discovers one source as a job, with its report as the result", async () => {
    const source = await makeSource(t.db, { sourceType: "web_scraping", websiteUrl: site.url, rssFeedUrl: null, scrapingConfig: { crawlDelay: 0 } });
    const jobs = await startWorker();
    const { jobId } = await jobs.enqueue("crawl-discovery", { source_id: source.id });
    const job = await finished(jobs, jobId);
    expect(job.status).toBe("succeeded");
    expect(job.result).toMatchObject({ sources_processed: 1, queued: 2, sources: [{ source_id: source.id, queued: 2 }] });
    expect(await t.db.select().from(urlQueue)).toHaveLength(2);
  });

  test("a source already being discovered fails the job with a reason instead of reporting nothing", async () => {
    const source = await makeSource(t.db, { sourceType: "web_scraping", websiteUrl: site.url, rssFeedUrl: null, scrapingConfig: { crawlDelay: 0 } });
    await t.db.update(sources).set({ leaseUntil: new Date(Date.now() + 60_000) }).where(eq(sources.id, source.id));
    const jobs = await startWorker();
    const job = await finished(jobs, (await jobs.enqueue("crawl-discovery", { source_id: source.id })).jobId);
    expect(job.status).toBe("failed");
    expect(job.error).toMatch(/being discovered by another run/);
  });

  test("the queue scrape reports progress and its result", async () => {
    const source = await makeSource(t.db, { sourceType: "web_scraping", websiteUrl: site.url, rssFeedUrl: null, scrapingConfig: { crawlDelay: 0 } });
    const jobs = await startWorker();
    await finished(jobs, (await jobs.enqueue("crawl-discovery", { source_id: source.id })).jobId);
    const ids = (await t.db.select({ id: urlQueue.id }).from(urlQueue)).map((r) => r.id);
    const job = await finished(jobs, (await jobs.enqueue("scrape-queue", { ids })).jobId);
    expect(job.status).toBe("succeeded");
    // Both pages are 404 here: they stay queued with the reason, counted as failed.
    expect(job.result).toMatchObject({ succeeded: 0, failed: 2, total: 2 });
    expect(job.progress).toBe(2);
    expect(job.total).toBe(2);
  });
});
