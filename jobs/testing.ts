import pino from "pino";
import { afterAll, beforeAll } from "vitest";
import type { Database } from "~/db/client";
import type { Repos } from "~/db/repos";
import { createPoliteClient } from "~/domain/crawl/polite-client";
import type { HttpClient } from "~/integrations/http/types";
import { crawlHandlers } from "./crawl.job";
import { ingestionHandlers } from "./ingestion.job";
import { createJobRunner, type JobHandlers, type JobRunner, type JobRunnerOptions } from "./runner";

/**
 * For tests: a handler for every queue that does nothing, so a test spreads in only the work it looks
 * at (`{ ...idleHandlers, "scrape-queue": ... }`) and a new job kind is added here once.
 */
export const idleHandlers: JobHandlers = {
  "rss-ingestion": async () => ({}),
  "rss-poll": async () => null,
  "crawl-discovery": async () => ({}),
  "crawl-poll": async () => null,
  "scrape-queue": async () => ({}),
  "enhance-images": async () => ({}),
  "facebook-post": async () => ({}),
  triage: async () => ({}),
  "triage-poll": async () => null,
};

/**
 * For tests: a started worker that ingests feeds and crawls sites through `http` (crawling behind the
 * politeness gate), with no schedule of its own and a short poll, so a test's queued job runs soon.
 */
export async function startFeedAndCrawlWorker(deps: Pick<JobRunnerOptions, "database" | "logger"> & { repos: Repos; http: HttpClient }): Promise<JobRunner> {
  const { database, logger, repos, http } = deps;
  const userAgent = "Oddwire/test";
  const runner = await createJobRunner({
    database,
    logger,
    handlers: {
      ...idleHandlers,
      ...ingestionHandlers({ repos, http, logger }),
      ...crawlHandlers({ repos, http: createPoliteClient({ http, crawl: repos.crawl, logger, userAgent }), logger, userAgent, renderer: null }),
    },
    pollSchedule: null,
    pollingIntervalSeconds: 0.5,
  });
  await runner.start();
  return runner;
}

/**
 * For a test file: a runner without handlers, started before its tests and stopped after them, that
 * only queues jobs as a web process does (a queued job is the outcome a test looks at). Read it in a
 * test, not before: it starts in beforeAll.
 */
export function queueingRunnerForFile(database: () => Database): () => JobRunner {
  let runner: JobRunner | undefined;
  beforeAll(async () => {
    runner = await createJobRunner({ database: database(), logger: pino({ level: "silent" }), pollSchedule: null });
    await runner.start();
  });
  afterAll(async () => {
    await runner?.stop();
  });
  return () => {
    if (!runner) throw new Error("queueingRunnerForFile(): the runner starts in beforeAll");
    return runner;
  };
}
