import { and, eq, inArray, sql } from "drizzle-orm";
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
    async updateProgress(id: string, progress: { done: number; total: number | null; message: string | null }): Promise<void> {
      await db
        .update(jobs)
        .set({ progress: progress.done, total: progress.total, message: progress.message })
        .where(and(eq(jobs.id, id), eq(jobs.status, "running")));
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
    async failOrphans(options: { queueSchema: string; graceSeconds: number; error: string }): Promise<string[]> {
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
        .returning({ id: jobs.id });
      return rows.map((r) => r.id);
    },
  };
}
export type JobsRepo = ReturnType<typeof jobsRepo>;
