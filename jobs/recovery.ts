import type PgBoss from "pg-boss";
import type { Logger } from "pino";
import type { JobsRepo } from "~/db/repos/jobs.repo";
import { JOB_KIND_NAMES, type JobKind } from "~/domain/jobs/kinds";
import { QUEUE_SCHEMA } from "./queues";

// What the job runner does about jobs whose process died or stopped: it ends them, and queues their
// work again where it can go on.

/** Why a job ended without finishing: its lease lapsed, its queue entry was lost, or its worker stopped. */
export const INTERRUPTED = "The job was interrupted before it finished (the worker stopped or the job timed out).";
export const STOPPED = "The worker stopped before the job finished.";

/** Whether a job's error says it was cut off (and may be taken up again) rather than failing on its own. */
export const interruptedError = (error: string | null) => error !== null && (error.startsWith(INTERRUPTED) || error.startsWith(STOPPED));

/**
 * Every kind's interrupted jobs (a worker killed or restarted) are queued again to finish their work,
 * skipping what was stored (JobContext.resumedSince). A Facebook post cut off mid-call is looked for
 * on the Page before it is tried again.
 */
const RESUMABLE: readonly JobKind[] = JOB_KIND_NAMES;
/** A job interrupted longer ago than this is not resumed any more. */
const RESUME_WINDOW_MS = 24 * 60 * 60_000;
/** A queued job without a queue entry this long is taken for lost. */
const ORPHAN_GRACE_SECONDS = 60;

/**
 * The sweep a worker runs at start and every few seconds: jobs whose lease lapsed are ended (and their
 * queue entries failed), jobs that lost their queue entry are failed, and interrupted work is queued
 * again through `send`, once the sources the dead process held are free (`resumeDelayMs` after its lease).
 */
export function createRecovery(deps: {
  repo: JobsRepo;
  boss: PgBoss;
  logger: Logger;
  resumeDelayMs: number;
  send: (kind: JobKind, input: Record<string, unknown>, requestedBy: string | null, startAfter: Date | null) => Promise<{ jobId: string }>;
}): () => Promise<void> {
  const { repo, boss, logger, resumeDelayMs, send } = deps;
  /** Jobs whose process died (their lease lapsed) are ended, and those that can go on are taken up again. */
  async function recoverInterrupted() {
    try {
      for (const job of await repo.endLapsed(new Date(), INTERRUPTED)) {
        logger.warn({ jobId: job.id, kind: job.kind, status: job.status }, "a running job's process stopped renewing its lease; the job was ended");
        // Its queue entry would otherwise stay active until the queue's own expiry.
        await boss.fail(job.kind, job.id, { message: INTERRUPTED }).catch((error: unknown) => logger.debug({ err: error }, "could not fail the queue entry"));
      }
    } catch (error) {
      logger.warn({ err: error }, "could not look for jobs whose process stopped");
    }
    await failOrphans();
    await resumeInterrupted();
  }

  async function failOrphans() {
    try {
      const orphans = await repo.failOrphans({ queueSchema: QUEUE_SCHEMA, graceSeconds: ORPHAN_GRACE_SECONDS, error: INTERRUPTED });
      for (const orphan of orphans) logger.warn({ jobId: orphan.id }, "job interrupted before it finished; marked failed");
    } catch (error) {
      logger.warn({ err: error }, "could not check for interrupted jobs");
    }
  }

  /** Resumable work cut off by a stop or a crash goes on in a new job with the same input; it skips what was done. */
  async function resumeInterrupted() {
    try {
      const interrupted = await repo.interruptedWithoutResume({
        kinds: [...RESUMABLE],
        errorPrefixes: [INTERRUPTED, STOPPED],
        since: new Date(Date.now() - RESUME_WINDOW_MS),
      });
      for (const job of interrupted) {
        try {
          // A job whose process died may have left sources leased: its successor starts once they are free.
          const startAfter = job.leaseUntil ? new Date(job.leaseUntil.getTime() + resumeDelayMs) : null;
          const { jobId } = await send(job.kind as JobKind, { ...(job.input ?? {}), resumed_from: job.id }, job.requestedBy, startAfter && startAfter > new Date() ? startAfter : null);
          logger.info({ jobId, resumedFrom: job.id, kind: job.kind }, "interrupted job resumed");
        } catch (error) {
          // Another worker resumed it at the same moment (one resume per job: a unique index).
          if ((error as { code?: string }).code === "23505" || (error as { cause?: { code?: string } }).cause?.code === "23505") continue;
          throw error;
        }
      }
    } catch (error) {
      logger.warn({ err: error }, "could not resume interrupted jobs");
    }
  }

  return recoverInterrupted;
}
