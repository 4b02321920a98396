import { capturedLog } from "~/test/captured-log";
import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, test } from "vitest";
import { jobs } from "~/db/schema";
import { makeJob, makeUser } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { QUEUE_SCHEMA } from "./queues";
import { createJobRunner, type JobHandlers, type JobRunner, type JobRunnerOptions } from "./runner";
import type { JobView } from "./types";
import { idleHandlers } from "./testing";
import { reaching } from "~/test/reaching";

const t = testDatabaseForFile();

// Log lines are kept so a test can show that the queue reported no errors of its own.
const { logger, lines: logLines } = capturedLog<{ level: number; msg: string; jobId?: string; kind?: string }>("debug");

const runners: JobRunner[] = [];
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.stop()));
  const queueErrors = logLines.filter((l) => l.msg === "job queue error");
  logLines.length = 0;
  expect(queueErrors).toEqual([]);
});


async function startRunner(options: Partial<JobRunnerOptions> = {}): Promise<JobRunner> {
  const runner = await createJobRunner({
    database: t.database,
    logger,
    pollSchedule: null,
    pollingIntervalSeconds: 0.5,
    stopGraceMs: 200,
    ...options,
  });
  runners.push(runner);
  await runner.start();
  return runner;
}


const finished = (job: JobView | null) => job !== null && ["succeeded", "failed", "cancelled"].includes(job.status);
const waitUntilFinished = (runner: JobRunner, jobId: string) =>
  reaching(() => runner.get(jobId), finished, `job ${jobId} to finish`) as Promise<JobView>;

/** The queue's own record of a job: its state and how often it was retried. */
async function queueRecord(jobId: string) {
  const result = (await t.db.execute(
    sql`SELECT state, retry_count AS "retryCount" FROM ${sql.identifier(QUEUE_SCHEMA)}.job WHERE id = ${jobId}`,
  )) as unknown as { rows: { state: string; retryCount: number }[] };
  return result.rows[0] ?? null;
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe("the job runner", () => {
  test("the queue opens no connections of its own: every one it uses is the process's pool's", async () => {
    await startRunner({ handlers: idleHandlers });
    // Let every queue's worker poll a few times.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const result = (await t.db.execute(
      sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend'`,
    )) as unknown as { rows: { n: number }[] };
    expect(result.rows[0]!.n).toBeLessThanOrEqual(t.database.pool.totalCount);
  });

  test("a queued job runs its handler and ends succeeded with its result and progress", async () => {
    const editor = await makeUser(t.db);
    const inputs: unknown[] = [];
    const runner = await startRunner({
      handlers: {
        ...idleHandlers,
        "rss-ingestion": async (input, { reportProgress }) => {
          inputs.push(input);
          for (let done = 1; done <= 3; done++) await reportProgress({ done, total: 3, message: `source ${done} of 3` });
          return { sources_processed: 3, total_items_found: 12, total_items_processed: 5 };
        },
      },
    });

    const { jobId } = await runner.enqueue("rss-ingestion", { use_canonical: true }, { requestedBy: editor.id });
    const job = await waitUntilFinished(runner, jobId);

    expect(inputs).toEqual([{ use_canonical: true }]);
    expect(job).toMatchObject({
      id: jobId,
      kind: "rss-ingestion",
      status: "succeeded",
      progress: 3,
      total: 3,
      message: "source 3 of 3",
      result: { sources_processed: 3, total_items_found: 12, total_items_processed: 5 },
      error: null,
    });
    expect(Date.parse(job.startedAt ?? "")).toBeGreaterThanOrEqual(Date.parse(job.createdAt));
    expect(Date.parse(job.finishedAt ?? "")).toBeGreaterThanOrEqual(Date.parse(job.startedAt ?? ""));
    // The runner logs the outcome once it is recorded: the line may follow the finished job by a moment.
    await expect.poll(() => logLines.filter((l) => l.jobId === jobId).map((l) => l.msg)).toEqual(["job queued", "job started", "job succeeded"]);
  });

  test("a handler that throws leaves the job failed with its message, and it is not retried", async () => {
    let calls = 0;
    const runner = await startRunner({
      handlers: {
        ...idleHandlers,
        "rss-ingestion": async () => {
          calls++;
          throw new Error("the feed server is on fire");
        },
      },
    });

    const { jobId } = await runner.enqueue("rss-ingestion", {});
    const job = await waitUntilFinished(runner, jobId);

    expect(job).toMatchObject({ status: "failed", error: "the feed server is on fire", result: null });
    // Once the queue has settled the job, a job to be retried would say 'retry'; this one is over.
    const settled = await reaching(() => queueRecord(jobId), (r) => r !== null && !["created", "active"].includes(r.state), "the queue to settle the job");
    expect(settled).toEqual({ state: "failed", retryCount: 0 });
    expect(calls).toBe(1);
  });

  test("progress is visible through get() while the job runs", async () => {
    const release = deferred();
    const runner = await startRunner({
      handlers: {
        ...idleHandlers,
        "rss-ingestion": async (_input, { reportProgress }) => {
          await reportProgress({ done: 2, total: 5, message: "fetching feeds" });
          await release.promise;
          return { done: true };
        },
      },
    });

    const { jobId } = await runner.enqueue("rss-ingestion", {});
    const midway = await reaching(() => runner.get(jobId), (j) => j?.progress === 2, "progress to be stored");
    expect(midway).toMatchObject({ status: "running", progress: 2, total: 5, message: "fetching feeds", finishedAt: null });

    release.resolve();
    expect(await waitUntilFinished(runner, jobId)).toMatchObject({ status: "succeeded", result: { done: true } });
  });

  test("a job queued while no worker runs is done once a worker starts", async () => {
    const web = await startRunner();
    const { jobId } = await web.enqueue("rss-ingestion", { use_canonical: false });
    await web.stop();
    expect(await web.get(jobId)).toMatchObject({ status: "queued", startedAt: null });

    const worker = await startRunner({
      handlers: { ...idleHandlers, "rss-ingestion": async (input) => ({ echoed: input }) },
    });
    expect(await waitUntilFinished(worker, jobId)).toMatchObject({
      status: "succeeded",
      result: { echoed: { use_canonical: false } },
    });
  });

  test("stop() returns promptly and records a job that ignored the request to stop as failed", async () => {
    const started = deferred();
    const release = deferred();
    const runner = await startRunner({
      handlers: {
        ...idleHandlers,
        "rss-ingestion": async () => {
          started.resolve();
          await release.promise;
          return { late: true };
        },
      },
    });
    const { jobId } = await runner.enqueue("rss-ingestion", {});
    await started.promise;

    const outcome = await Promise.race([
      runner.stop().then(() => "stopped"),
      new Promise((resolve) => setTimeout(() => resolve("still stopping after 10 s"), 10_000).unref()),
    ]);
    release.resolve();

    expect(outcome).toBe("stopped");
    expect(await runner.get(jobId)).toMatchObject({ status: "failed", error: "The worker stopped before the job finished." });
  });

  test("a running job is told to abort when the runner stops", async () => {
    const started = deferred();
    const runner = await startRunner({
      handlers: {
        ...idleHandlers,
        "rss-ingestion": (_input, { signal }) =>
          new Promise((_resolve, reject) => {
            started.resolve();
            signal.addEventListener("abort", () => reject(new Error("cycle aborted")));
          }),
      },
    });
    const { jobId } = await runner.enqueue("rss-ingestion", {});
    await started.promise;

    await runner.stop();

    // The record says the stop cut it off, and why the job itself gave up.
    expect(await runner.get(jobId)).toMatchObject({ status: "failed", error: "The worker stopped before the job finished. (cycle aborted)" });
  });

  test("a poll asked for now runs the poll handler", async () => {
    const polls: string[] = [];
    const runner = await startRunner({
      handlers: {
        ...idleHandlers,
        "rss-poll": async ({ jobId }) => {
          polls.push(jobId);
          return null;
        },
      },
    });

    await runner.pollNow();

    const [pollId] = await reaching(async () => polls, (ids) => ids.length === 1, "the poll to run");
    expect(pollId).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("a worker with the minute poll scheduled polls once as soon as it starts", async () => {
    let polls = 0;
    await startRunner({
      pollSchedule: "* * * * *",
      handlers: {
        ...idleHandlers,
        "rss-poll": async () => {
          polls++;
          return null;
        },
      },
    });

    expect(await reaching(async () => polls, (n) => n > 0, "the first poll")).toBeGreaterThan(0);
  });

  test("a job left queued or running by a worker that died is marked failed when a worker starts, and its work taken up again", async () => {
    const longAgo = new Date(Date.now() - 10 * 60_000);
    const orphan = await makeJob(t.db, { kind: "rss-ingestion", status: "running", createdAt: longAgo, startedAt: longAgo });
    const fresh = await makeJob(t.db, { kind: "rss-ingestion", status: "queued" });

    const runner = await startRunner({ handlers: idleHandlers });

    const [row] = await t.db.select().from(jobs).where(eq(jobs.id, orphan.id));
    expect(row).toMatchObject({ status: "failed", error: expect.stringMatching(/interrupted/) });
    // A new job goes on with its work, and a page following the orphan is shown that job.
    const successor = await runner.get(orphan.id);
    expect(successor?.id).not.toBe(orphan.id);
    expect((await t.db.select().from(jobs).where(eq(jobs.id, successor!.id)))[0]?.input).toMatchObject({ resumed_from: orphan.id });
    expect(await runner.get(fresh.id)).toMatchObject({ status: "queued" });
  });

  test("queueing a job before the runner starts is refused", async () => {
    const runner = await createJobRunner({ database: t.database, logger, handlers: idleHandlers });
    await expect(runner.enqueue("rss-ingestion", {})).rejects.toThrow(/not started/);
  });

  test("an unknown job is reported as null", async () => {
    const runner = await startRunner();
    expect(await runner.get("00000000-0000-0000-0000-000000000000")).toBeNull();
  });
});

describe("several workers on PostgreSQL", () => {
  test("two runners over one database run each of many jobs exactly once", async () => {
    const runs = new Map<string, string[]>();
    const handlersFor = (name: string): JobHandlers => ({
      ...idleHandlers,
      "rss-ingestion": async (_input, { jobId }) => {
        runs.set(jobId, [...(runs.get(jobId) ?? []), name]);
        // Each run lasts a moment, so both runners hold jobs at once: a job taken twice would show.
        await new Promise((resolve) => setTimeout(resolve, 20));
        return { by: name };
      },
    });
    const first = await startRunner({ handlers: handlersFor("first") });
    const second = await startRunner({ handlers: handlersFor("second") });

    const jobIds: string[] = [];
    for (let i = 0; i < 30; i++) jobIds.push((await (i % 2 ? first : second).enqueue("rss-ingestion", {})).jobId);
    const jobs = await Promise.all(jobIds.map((id) => waitUntilFinished(first, id)));

    expect(jobs.every((j) => j.status === "succeeded")).toBe(true);
    expect(jobIds.map((id) => runs.get(id)?.length)).toEqual(jobIds.map(() => 1));
  });
});
