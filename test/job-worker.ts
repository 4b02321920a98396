import type { Database } from "~/db/client";
import { createRepos } from "~/db/repos";
import { createGuardedClient } from "~/integrations/http/guarded-client";
import { createJobRunner, type JobContext, type JobRunner } from "~/jobs/runner";
import { schedulePostWith } from "~/domain/social/post-story";
import { createFeedParserPool } from "~/server/processes/feed-parser-pool";
import { createLogger } from "~/server/logger";
import { createPoliteness } from "~/server/politeness";
import { workerHandlers } from "~/server/processes/worker-handlers";

/**
 * A started job worker as `serve` builds one (the real handlers for feeds, discovery, queue scrapes and
 * images, behind the politeness gate, reaching 127.0.0.1 only), with every lease `leaseMs` long, so a
 * test can kill a worker and watch another take its work up without waiting the production minute.
 */
export async function startTestWorker(
  database: Database,
  options: {
    leaseMs: number;
    logLevel?: string;
    /** Told each progress report of a job: a job reports an item done once it has stored it. */
    onProgress?: (progress: { jobId: string; done: number; total: number }) => void;
  },
): Promise<{ runner: JobRunner; stop(): Promise<void> }> {
  const { leaseMs } = options;
  const logger = createLogger({ level: options.logLevel ?? "silent", fd: 2 });
  const repos = createRepos(database.db);
  const siteUrl = "http://oddwire.test";
  const http = createGuardedClient({
    userAgent: "Oddwire/test",
    allowHosts: ["127.0.0.1"],
  });
  const feedParser = createFeedParserPool({ logger });
  const self: { runner?: JobRunner } = {};
  const handlers = workerHandlers({
    config: { siteUrl },
    repos,
    http: createPoliteness({ http, repos, logger, siteUrl }),
    logger,
    parseFeed: feedParser.parse,
    parseSitemap: feedParser.parseSitemap,
    renderer: null,
    facebook: null,
    schedulePost: schedulePostWith(() => self.runner!),
    sourceLeases: { leaseMs, leaseRenewMs: leaseMs / 4 },
  });
  const onProgress = options.onProgress;
  if (onProgress) {
    for (const kind of ["rss-ingestion", "crawl-discovery", "scrape-queue", "enhance-images"] as const) {
      const handler = handlers[kind] as (input: unknown, ctx: JobContext) => Promise<Record<string, unknown>>;
      handlers[kind] = ((input: unknown, ctx: JobContext) =>
        handler(input, {
          ...ctx,
          reportProgress: (p) => {
            onProgress({ jobId: ctx.jobId, done: p.done, total: p.total });
            return ctx.reportProgress(p);
          },
        })) as never;
    }
  }
  const runner = await createJobRunner({
    database,
    logger,
    handlers,
    pollSchedule: null,
    pollingIntervalSeconds: 0.5,
    stopGraceMs: 100,
    leaseMs,
    leaseRenewMs: leaseMs / 4,
    sweepMs: leaseMs / 4,
    resumeDelayMs: leaseMs,
    maintenanceIntervalSeconds: Math.max(1, leaseMs / 2_000),
  });
  self.runner = runner;
  await runner.start();
  return {
    runner,
    async stop() {
      await runner.stop();
      await feedParser.close();
      await http.close();
    },
  };
}
