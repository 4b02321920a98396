import { eq, inArray } from "drizzle-orm";
import pino from "pino";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { jobs as jobsTable, stories } from "~/db/schema";
import { makeJob, makeStory } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { testHttpClient } from "~/integrations/http/testing";
import type { HttpClient } from "~/integrations/http/types";
import { startTestServer, type TestServer } from "~/test/http-test-server";
import { imageHandlers } from "./images.job";
import { createJobRunner, type JobHandlers, type JobRunner } from "./runner";
import type { JobView } from "./types";
import { idleHandlers } from "./testing";
import { reaching } from "~/test/reaching";

const t = testDatabaseForFile();
const logger = pino({ level: "silent" });
let site: TestServer;
let http: HttpClient;
const runners: JobRunner[] = [];
let delayMs = 0;

beforeAll(async () => {
  site = await startTestServer();
  http = testHttpClient();
  const photo = await sharp({ create: { width: 1600, height: 900, channels: 3, background: "#3a6" } }).jpeg().toBuffer();
  site.handle("/photo.jpg", (_req, res) => res.writeHead(200, { "content-type": "image/jpeg" }).end(photo));
  // Every article page answers slowly when a test asks for it, so a run can be watched and stopped.
  site.handle("/article", (_req, res) =>
    setTimeout(() => res.writeHead(200, { "content-type": "text/html" }).end(`<meta property="og:image" content="${site.url}/photo.jpg"><p>Text</p>`), delayMs),
  );
});
afterAll(async () => {
  await http.close();
  await site.close();
});
afterEach(async () => {
  delayMs = 0;
  await Promise.all(runners.splice(0).map((r) => r.stop()));
});

async function startRunner() {
  const handlers: JobHandlers = {
    ...idleHandlers,
    ...imageHandlers({ repos: t.repos, http, logger }),
  };
  const runner = await createJobRunner({ database: t.database, logger, handlers, pollSchedule: null, pollingIntervalSeconds: 0.5, stopGraceMs: 100 });
  runners.push(runner);
  await runner.start();
  return runner;
}

const until = (runner: JobRunner, jobId: string, done: (job: JobView) => boolean) =>
  reaching(() => runner.get(jobId), (job): job is JobView => job !== null && done(job), `job ${jobId} to reach the expected state`);
const ended = (job: JobView) => ["succeeded", "failed", "cancelled"].includes(job.status);

async function storiesToEnhance(n: number) {
  const made = [];
  for (let i = 0; i < n; i++) made.push(await makeStory(t.db, { imageUrl: null, originalUrl: `${site.url}/article?n=${i}` }));
  return made.map((s) => s.id);
}

describe("image enhancement as a job", () => {
  test("a bulk run reports processed of total with its counts, and ends with the spec's result", async () => {
    const ids = await storiesToEnhance(3);
    const runner = await startRunner();
    const { jobId } = await runner.enqueue("enhance-images", { storyIds: ids, batchSize: 3 });
    const job = await until(runner, jobId, ended);
    expect(job.status).toBe("succeeded");
    expect(job).toMatchObject({ progress: 3, total: 3, counts: { enhanced: 3, failed: 0, skipped: 0 } });
    expect(job.result).toMatchObject({ processed: 3, enhanced: 3, failed: 0, skipped: 0 });
    expect((job.result as { details: unknown[] }).details).toHaveLength(3);
  });

  test("cancel stops a running job between stories: it ends cancelled, and what it did stays done", async () => {
    delayMs = 400;
    const ids = await storiesToEnhance(12);
    const runner = await startRunner();
    const { jobId } = await runner.enqueue("enhance-images", { storyIds: ids, batchSize: 12 });
    await until(runner, jobId, (job) => job.status === "running");
    expect(await runner.cancel(jobId)).toBe(true);
    const job = await until(runner, jobId, ended);
    expect(job.status).toBe("cancelled");
    expect(job.cancelRequested).toBe(true);
    const rows = await t.db.select().from(stories).where(inArray(stories.id, ids));
    expect(rows.filter((r) => r.imageEnhanced).length).toBeLessThan(12);
    expect(await runner.cancel(jobId)).toBe(false);
  });

  test("a run cut off by a restart goes on in a new job after it, finishing only what was left", async () => {
    delayMs = 300;
    const ids = await storiesToEnhance(10);
    const first = await startRunner();
    const { jobId } = await first.enqueue("enhance-images", { storyIds: ids, batchSize: 10 });
    await until(first, jobId, (job) => job.progress >= 1);
    await first.stop();
    runners.splice(runners.indexOf(first), 1);
    const interrupted = await first.get(jobId);
    expect(interrupted?.status).toBe("failed");
    const doneBefore = (await t.db.select().from(stories).where(inArray(stories.id, ids))).filter((r) => r.imageEnhanced).length;
    expect(doneBefore).toBeGreaterThan(0);
    expect(doneBefore).toBeLessThan(10);

    delayMs = 0;
    const second = await startRunner();
    await until(second, jobId, () => true);
    const resumed = await reaching(
      async () => (await t.db.select().from(jobsTable).where(eq(jobsTable.kind, "enhance-images")).orderBy(jobsTable.createdAt).offset(1).limit(1))[0],
      (row) => row !== undefined,
      "the resumed job",
    );
    expect(resumed.input).toMatchObject({ resumed_from: jobId });
    const finished = await until(second, resumed.id, ended);
    expect(finished.status).toBe("succeeded");
    expect((finished.result as { processed: number }).processed).toBe(10 - doneBefore);
    const rows = await t.db.select().from(stories).where(inArray(stories.id, ids));
    expect(rows.every((r) => r.imageEnhanced)).toBe(true);
  });
});

describe("a run resumed more than once", () => {
  test("skips every story checked since the first job of the chain started", async () => {
    const started = new Date(Date.now() - 60_000);
    const first = await makeJob(t.db, { kind: "enhance-images", status: "failed", startedAt: started, input: { storyIds: [] } });
    const second = await makeJob(t.db, { kind: "enhance-images", status: "failed", startedAt: new Date(Date.now() - 30_000), input: { storyIds: [], resumed_from: first.id } });
    // Done by the first job, before the second started: not to be done again.
    const doneFirst = await makeStory(t.db, { originalUrl: `${site.url}/article?n=chain-1`, imageUrl: null, imageCheckedAt: new Date(started.getTime() + 5_000) });
    const notYet = await makeStory(t.db, { originalUrl: `${site.url}/article?n=chain-2`, imageUrl: null });
    // The third job of the chain, as the runner queues it when it takes the second one up again.
    const runner = await startRunner();
    const { jobId } = await runner.enqueue("enhance-images", { storyIds: [doneFirst.id, notYet.id], resumed_from: second.id });
    const job = await until(runner, jobId, ended);
    expect(job.status).toBe("succeeded");
    const result = job.result as { processed: number; details: { storyId: number }[] };
    expect(result.processed).toBe(1);
    expect(result.details.map((d) => d.storyId)).toEqual([notYet.id]);
  });
});
