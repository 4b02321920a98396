import { eq, sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { socialMediaPosts } from "~/db/schema";
import { makeStory } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { cancelScheduledPost, requestPost } from "~/domain/social/post-story";
import { createGraphClient, type GraphClient } from "~/integrations/facebook/graph-client";
import { graphErrors, startFakeGraph, type FakeGraph } from "~/integrations/facebook/testing/fake-graph";
import { QUEUE_SCHEMA } from "./queues";
import { createJobRunner, type JobHandlers, type JobRunner } from "./runner";
import { schedulePostWith } from "~/domain/social/post-story";
import { socialHandlers } from "./social.job";
import type { JobView } from "./types";
import { idleHandlers } from "./testing";
import { reaching } from "~/test/reaching";

const t = testDatabaseForFile();
const logger = pino({ level: "silent" });
let fake: FakeGraph;
let graph: GraphClient;
const runners: JobRunner[] = [];

beforeAll(async () => {
  fake = await startFakeGraph();
  graph = createGraphClient({ ...fake.clientOptions(), timeoutMs: 2_000 });
});
afterAll(async () => {
  await graph.close();
  await fake.close();
});
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.stop()));
  fake.clearAnswers();
  fake.requests.length = 0;
  fake.posts.length = 0;
});

/** A worker with the posting handler; its retries are queued on itself. */
async function startRunner(): Promise<JobRunner> {
  const self: { runner?: JobRunner } = {};
  const handlers: JobHandlers = {
    ...idleHandlers,
    ...socialHandlers({ repos: t.repos, graph, schedule: schedulePostWith(() => self.runner!), logger }),
  };
  const runner = await createJobRunner({ database: t.database, logger, handlers, pollSchedule: null, pollingIntervalSeconds: 0.5, stopGraceMs: 100 });
  self.runner = runner;
  runners.push(runner);
  await runner.start();
  return runner;
}

const ended = (job: JobView | null): job is JobView => job !== null && ["succeeded", "failed", "cancelled"].includes(job.status);
const rowOf = async (id: number) => (await t.db.select().from(socialMediaPosts).where(eq(socialMediaPosts.id, id)))[0];
const request = (runner: JobRunner, storyId: number, at: Date | null = null) =>
  requestPost({ repos: t.repos, siteUrl: "https://oddwire.test", connected: true, schedule: schedulePostWith(() => runner) }, { storyId, at, actorUserId: null });

describe("Facebook posts as jobs", () => {
  test("a post asked for now is made by its job, whose result names the live post", async () => {
    const runner = await startRunner();
    const story = await makeStory(t.db);
    const row = await request(runner, story.id);
    const job = await reaching(() => runner.get(row.jobId!), ended, "the post's job ends");
    expect(job).toMatchObject({ kind: "facebook-post", status: "succeeded" });
    expect(job.result).toMatchObject({ outcome: "posted", status: "posted", post_id: fake.posts.at(-1)!.id });
    expect(await rowOf(row.id)).toMatchObject({ status: "posted" });
  });

  test("a scheduled post waits for its time, and survives a restart of the worker", async () => {
    const first = await startRunner();
    const story = await makeStory(t.db);
    const row = await request(first, story.id, new Date(Date.now() + 2_000));
    await first.stop();
    runners.splice(runners.indexOf(first), 1);
    expect(fake.requests.filter((r) => r.endpoint === "feed")).toHaveLength(0);

    const second = await startRunner();
    const posted = await reaching(() => rowOf(row.id), (r) => r?.status === "posted", "the scheduled post is made");
    expect(posted!.postedAt!.getTime()).toBeGreaterThanOrEqual(row.scheduledFor!.getTime());
    expect(fake.requests.filter((r) => r.endpoint === "feed")).toHaveLength(1);
    await second.stop();
  });

  test("a cancelled scheduled post is never made", async () => {
    const runner = await startRunner();
    const story = await makeStory(t.db);
    const row = await request(runner, story.id, new Date(Date.now() + 1_000));
    await cancelScheduledPost({ repos: t.repos, cancelJob: (id) => runner.cancel(id) }, { postRowId: row.id, actorUserId: null });
    const job = await reaching(() => runner.get(row.jobId!), ended, "the cancelled job ends");
    expect(job.status).toBe("cancelled");
    // Once its time has come the queue hands the job over, and the runner drops it without running it.
    const queueState = async () => {
      const result = (await t.db.execute(sql`SELECT state FROM ${sql.identifier(QUEUE_SCHEMA)}.job WHERE id = ${row.jobId}`)) as unknown as {
        rows: { state: string }[];
      };
      return result.rows[0]?.state ?? null;
    };
    await reaching(queueState, (state) => state === "completed", "the queue hands the job over");
    expect(fake.requests.filter((r) => r.endpoint === "feed")).toHaveLength(0);
    expect(await rowOf(row.id)).toBeUndefined();
  });

  test("a rate-limited post is queued again for later rather than failed", async () => {
    const runner = await startRunner();
    const story = await makeStory(t.db);
    fake.answerOnce("feed", { kind: "error", error: graphErrors.rateLimited(32) });
    const row = await request(runner, story.id);
    const job = await reaching(() => runner.get(row.jobId!), ended, "the first attempt ends");
    expect(job.result).toMatchObject({ outcome: "retrying", status: "pending" });
    const waiting = await rowOf(row.id);
    expect(waiting).toMatchObject({ status: "pending", attempts: 1, errorCode: 32 });
    expect(waiting!.jobId).not.toBe(row.jobId);
    const next = await runner.get(waiting!.jobId!);
    expect(next).toMatchObject({ kind: "facebook-post", status: "queued" });
  });
});
