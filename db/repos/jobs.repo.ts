import { and, desc, eq, inArray, isNotNull, isNull, or, sql } from "drizzle-orm";
import type { Db } from "../client";
import { jobs } from "../schema";

export type JobRow = typeof jobs.$inferSelect;

const UNFINISHED = ["queued", "running"] as const;

export function jobsRepo(db: Db) {
  return {
    /** Records a job as queued, before the queue is told about it. */
    async insertQueued(job: { id: string; kind: string; input: Record<string, unknown>; requestedBy: string | null }): Promise<JobRow> {
      const [row] = await db
        .insert(jobs)
        .values({ id: job.id, kind: job.kind, status: "queued", input: job.input, requestedBy: job.requestedBy })
        .returning();
      if (!row) throw new Error("insert into jobs returned no row");
      return row;
    },

    async findById(id: string): Promise<JobRow | null> {
      const [row] = await db.select().from(jobs).where(eq(jobs.id, id)).limit(1);
      return row ?? null;
    },

    /** Claims a queued job for running; null when it is not queued (finished, cancelled or unknown). */
    async markRunning(id: string, at: Date): Promise<JobRow | null> {
      const [row] = await db
        .update(jobs)
        .set({ status: "running", startedAt: at })
        .where(and(eq(jobs.id, id), eq(jobs.status, "queued")))
        .returning();
      return row ?? null;
    },

    /** Stores how far a running job has got. */
    async updateProgress(
      id: string,
      progress: { done: number; total: number | null; message: string | null; counts?: Record<string, number> | null },
    ): Promise<void> {
      await db
        .update(jobs)
        .set({ progress: progress.done, total: progress.total, message: progress.message, ...(progress.counts ? { counts: progress.counts } : {}) })
        .where(and(eq(jobs.id, id), eq(jobs.status, "running")));
    },

    /** The newest queued or running job of a kind. */
    async latestUnfinished(kind: string): Promise<JobRow | null> {
      const [row] = await db
        .select()
        .from(jobs)
        .where(and(eq(jobs.kind, kind), inArray(jobs.status, [...UNFINISHED])))
        .orderBy(desc(jobs.createdAt))
        .limit(1);
      return row ?? null;
    },

    /** Asks an unfinished job to stop: a queued one is cancelled at once, a running one when its runner sees the request. */
    async requestCancel(id: string, at: Date): Promise<"cancelled" | "requested" | null> {
      const [queued] = await db
        .update(jobs)
        .set({ status: "cancelled", cancelRequestedAt: at, finishedAt: at })
        .where(and(eq(jobs.id, id), eq(jobs.status, "queued")))
        .returning({ id: jobs.id });
      if (queued) return "cancelled";
      const [running] = await db
        .update(jobs)
        .set({ cancelRequestedAt: at })
        .where(and(eq(jobs.id, id), eq(jobs.status, "running")))
        .returning({ id: jobs.id });
      return running ? "requested" : null;
    },

    /** Failed jobs of these kinds, whose error starts with one of these texts, ended since then, that no later job resumed. */
    async interruptedWithoutResume(input: { kinds: string[]; errorPrefixes: string[]; since: Date }): Promise<JobRow[]> {
      if (input.kinds.length === 0) return [];
      return db
        .select()
        .from(jobs)
        .where(
          and(
            inArray(jobs.kind, input.kinds),
            eq(jobs.status, "failed"),
            or(...input.errorPrefixes.map((prefix) => sql`starts_with(${jobs.error}, ${prefix})`)),
            sql`${jobs.finishedAt} >= ${input.since}`,
            isNull(jobs.cancelRequestedAt),
            sql`NOT EXISTS (SELECT 1 FROM ${jobs} later WHERE later.input->>'resumed_from' = ${jobs.id})`,
          ),
        )
        .orderBy(jobs.createdAt);
    },

    /** Whether someone asked this job to stop. */
    async cancelRequested(id: string): Promise<boolean> {
      const [row] = await db.select({ id: jobs.id }).from(jobs).where(and(eq(jobs.id, id), isNotNull(jobs.cancelRequestedAt))).limit(1);
      return row !== undefined;
    },

    async markCancelled(id: string, at: Date, result: Record<string, unknown> | null): Promise<void> {
      await db
        .update(jobs)
        .set({ status: "cancelled", finishedAt: at, ...(result ? { result } : {}) })
        .where(and(eq(jobs.id, id), inArray(jobs.status, [...UNFINISHED])));
    },

    async markSucceeded(id: string, result: Record<string, unknown>, at: Date): Promise<void> {
      await db
        .update(jobs)
        .set({ status: "succeeded", result, error: null, finishedAt: at })
        .where(and(eq(jobs.id, id), inArray(jobs.status, [...UNFINISHED])));
    },

    /** Marks unfinished jobs failed; finished ones keep their outcome. Returns the ids it changed. */
    async markFailed(ids: string[], error: string, at: Date): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .update(jobs)
        .set({ status: "failed", error, finishedAt: at })
        .where(and(inArray(jobs.id, ids), inArray(jobs.status, [...UNFINISHED])))
        .returning({ id: jobs.id });
      return rows.map((r) => r.id);
    },

    /**
     * Fails queued or running jobs whose queue entry (in pg-boss's schema) is no longer waiting or
     * active: the worker died, or the queue expired the job. Jobs younger than `graceSeconds` are
     * left alone, since a job is recorded here just before it is queued.
     */
    async failOrphans(options: { queueSchema: string; graceSeconds: number; error: string }): Promise<{ id: string; kind: string; input: Record<string, unknown> | null }[]> {
      const queueJobs = sql`${sql.identifier(options.queueSchema)}.${sql.identifier("job")}`;
      const rows = await db
        .update(jobs)
        .set({ status: "failed", error: options.error, finishedAt: sql`now()` })
        .where(
          and(
            inArray(jobs.status, [...UNFINISHED]),
            sql`${jobs.createdAt} < now() - make_interval(secs => ${options.graceSeconds})`,
            sql`NOT EXISTS (SELECT 1 FROM ${queueJobs} q WHERE q.name = ${jobs.kind} AND q.id::text = ${jobs.id}
                  AND q.state IN ('created', 'retry', 'active'))`,
          ),
        )
        .returning({ id: jobs.id, kind: jobs.kind, input: jobs.input });
      return rows;
    },
  };
}
export type JobsRepo = ReturnType<typeof jobsRepo>;
