import { sql } from "drizzle-orm";
import type { Db } from "../client";
import { feedProcessingLog, jobs } from "../schema";

/** What /metrics reads from the database at each scrape: small grouped counts. */
export function metricsRepo(db: Db) {
  return {
    /** Jobs by kind and status (queued ones are the queue's depth). */
    async jobsByKindAndStatus(): Promise<{ kind: string; status: string; n: number }[]> {
      return db
        .select({ kind: jobs.kind, status: jobs.status, n: sql<number>`count(*)::int` })
        .from(jobs)
        .groupBy(jobs.kind, jobs.status);
    },

    /** Feed fetches of the last day by outcome: new content, not modified (304), failed. */
    async feedFetchesByOutcome(): Promise<{ outcome: string; n: number }[]> {
      const outcome = sql<string>`CASE WHEN ${feedProcessingLog.error} IS NOT NULL THEN 'failed' WHEN ${feedProcessingLog.notModified} THEN 'not_modified' ELSE 'fetched' END`;
      return db
        .select({ outcome, n: sql<number>`count(*)::int` })
        .from(feedProcessingLog)
        .where(sql`${feedProcessingLog.startedAt} > now() - interval '1 day'`)
        .groupBy(outcome);
    },
  };
}
export type MetricsRepo = ReturnType<typeof metricsRepo>;
