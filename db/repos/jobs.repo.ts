import { and, desc, eq, inArray, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../client";
import { jobs } from "../schema";
import { leasesOf } from "./leases";

export type JobRow = typeof jobs.$inferSelect;

const UNFINISHED = ["queued", "running"] as const;

/** A resumed job may itself be resumed: its chain is followed this far back at most. */
const MAX_RESUMES_FOLLOWED = 50;

export function jobsRepo(db: Db) {
  // A running job is leased to its process, which renews the lease while it works (see leases.ts).
  const leases = leasesOf<typeof jobs, string>(db, jobs, jobs.id);
  const lapsedLease = (now: Date) => and(isNotNull(jobs.leaseUntil), lt(jobs.leaseUntil, now));
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

    /** Claims a queued job for running, leased until `leaseUntil`; null when it is not queued (finished, cancelled or unknown). */
    async markRunning(id: string, at: Date, leaseUntil: Date): Promise<JobRow | null> {
      const [row] = await leases.claim({
        where: [eq(jobs.id, id), eq(jobs.status, "queued")],
        now: at,
        until: leaseUntil,
        set: { status: "running", startedAt: at },
      });
      return row ?? null;
    },

    /** Extends the leases of jobs still running; returns those renewed (a job missing was ended elsewhere). */
    renewLeases: (ids: string[], leaseUntil: Date) => leases.renew(ids, leaseUntil, [eq(jobs.status, "running")]),

    /**
     * Ends running jobs whose lease lapsed before `now`: their process died. A job someone asked to
     * stop ends as cancelled; the others as failed with `error`, to be taken up again where their kind allows.
     */
    async endLapsed(now: Date, error: string): Promise<{ id: string; kind: string; status: JobRow["status"] }[]> {
      return db
        .update(jobs)
        .set({
          status: sql`CASE WHEN ${jobs.cancelRequestedAt} IS NULL THEN 'failed'::job_status ELSE 'cancelled'::job_status END`,
          error: sql`CASE WHEN ${jobs.cancelRequestedAt} IS NULL THEN ${error} ELSE NULL END`,
          finishedAt: now,
          // The lapsed lease stays on the row: it tells when the process's other leases are free.
        })
        .where(and(eq(jobs.status, "running"), lapsedLease(now)))
        .returning({ id: jobs.id, kind: jobs.kind, status: jobs.status });
    },

    /** The job that took up `id`'s work after it was interrupted, if one did. */
    async resumedBy(id: string): Promise<JobRow | null> {
      const [row] = await db.select().from(jobs).where(sql`${jobs.input}->>'resumed_from' = ${id}`).limit(1);
      return row ?? null;
    },

    /** When the first job of a chain of resumed jobs started (the chain that ends at `id`). */
    async chainStart(id: string): Promise<Date | null> {
      let since: Date | null = null;
      let next: string | undefined = id;
      for (let i = 0; next && i < MAX_RESUMES_FOLLOWED; i++) {
        const [job]: { startedAt: Date | null; createdAt: Date; input: Record<string, unknown> | null }[] = await db.select({ startedAt: jobs.startedAt, createdAt: jobs.createdAt, input: jobs.input }).from(jobs).where(eq(jobs.id, next)).limit(1);
        if (!job) break;
        since = job.startedAt ?? job.createdAt;
        const earlier: unknown = job.input?.resumed_from;
        next = typeof earlier === "string" ? earlier : undefined;
      }
      return since;
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
      // Its process is gone (the lease lapsed): nothing would ever read the request, so it ends now.
      const [dead] = await db
        .update(jobs)
        .set({ status: "cancelled", cancelRequestedAt: at, finishedAt: at, leaseUntil: null })
        .where(and(eq(jobs.id, id), eq(jobs.status, "running"), lapsedLease(at)))
        .returning({ id: jobs.id });
      if (dead) return "cancelled";
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
        .set({ status: "cancelled", finishedAt: at, leaseUntil: null, ...(result ? { result } : {}) })
        .where(and(eq(jobs.id, id), inArray(jobs.status, [...UNFINISHED])));
    },

    async markSucceeded(id: string, result: Record<string, unknown>, at: Date): Promise<void> {
      await db
        .update(jobs)
        .set({ status: "succeeded", result, error: null, finishedAt: at, leaseUntil: null })
        .where(and(eq(jobs.id, id), inArray(jobs.status, [...UNFINISHED])));
    },

    /** Marks unfinished jobs failed; finished ones keep their outcome. Returns the ids it changed. */
    async markFailed(ids: string[], error: string, at: Date): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .update(jobs)
        .set({ status: "failed", error, finishedAt: at, leaseUntil: null })
        .where(and(inArray(jobs.id, ids), inArray(jobs.status, [...UNFINISHED])))
        .returning({ id: jobs.id });
      return rows.map((r) => r.id);
    },

    /**
     * Keeps active queue entries (in pg-boss's schema) from expiring while their process works on
     * them: pg-boss fails an active entry once `started_on + expire_in` has passed, so setting
     * `expire_in` to `leaseMs` past now is a lease. The minute polls, which have no row of ours, are
     * leased this way. Returns the ids renewed.
     */
    async renewQueueEntries(options: { queueSchema: string; ids: string[]; leaseMs: number }): Promise<string[]> {
      if (options.ids.length === 0) return [];
      const queueJobs = sql`${sql.identifier(options.queueSchema)}.${sql.identifier("job")}`;
      const ids = sql.join(options.ids.map((id) => sql`${id}::uuid`), sql`, `);
      const result = await db.execute<{ id: string }>(
        sql`UPDATE ${queueJobs} SET expire_in = (now() - started_on) + make_interval(secs => ${options.leaseMs / 1000})
            WHERE id IN (${ids}) AND state = 'active' RETURNING id::text AS id`,
      );
      return (result as unknown as { rows: { id: string }[] }).rows.map((row) => row.id);
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
        .set({ status: "failed", error: options.error, finishedAt: sql`now()`, leaseUntil: null })
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
