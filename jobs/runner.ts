import { randomUUID } from "node:crypto";
import PgBoss from "pg-boss";
import type { Logger } from "pino";
import type { Database } from "~/db/client";
import { jobsRepo } from "~/db/repos/jobs.repo";
import { JOB_KIND_NAMES, parseJobInput, type JobInputOf } from "~/domain/jobs/kinds";
import { resultForLog, toView } from "./job-view";
import { createProgressWriter } from "./progress-writer";
import { ensureQueues, POLL_QUEUES, QUEUE_SCHEMA, type PollQueue } from "./queues";
import { createRecovery, interruptedError, STOPPED } from "./recovery";
import type { JobKind, JobsApi } from "./types";
import type { OnProgress } from "~/lib/progress";
import { errorMessage } from "~/lib/error-message";
import { keepLeases } from "~/lib/lease-keeper";
import { SOURCE_LEASE_MS } from "~/domain/sources/lease";

/**
 * What a running job is given: its id, a way to report progress, a signal that asks it to stop, and,
 * for a job taking up the work of one whose process died, when that work first started: what it
 * stored since then is done, and is skipped.
 */
export type JobContext = { jobId: string; reportProgress: OnProgress; signal: AbortSignal; resumedSince: Date | null };

/**
 * The work behind each queue; server/ passes in the real ones. Each kind's handler is given its input
 * as jobs/kinds.ts defines it, checked; the two minute polls take none.
 */
export type JobHandlers = { [K in JobKind]: (input: JobInputOf<K>, ctx: JobContext) => Promise<Record<string, unknown>> } & {
  /** The periodic poll: one RSS cycle over the sources that are due. */
  "rss-poll": (ctx: JobContext) => Promise<unknown>;
  /** The periodic discovery of the web_scraping sources that are due. */
  "crawl-poll": (ctx: JobContext) => Promise<unknown>;
  /** The periodic triage of the Pending list, when stories came in or decisions accumulated since the last. */
  "triage-poll": (ctx: JobContext) => Promise<unknown>;
};

/** A job stopped because someone asked it to; it ends as cancelled, not failed. */
export class JobCancelledError extends Error {
  constructor() {
    super("The job was cancelled.");
    this.name = "JobCancelledError";
  }
}

export type JobRunnerOptions = {
  database: Database;
  logger: Logger;
  /** Without handlers this process only queues jobs and reads them (ROLE=web). */
  handlers?: JobHandlers;
  /** Cron expression (UTC) for the due-sources poll; every minute by default; null for none. */
  pollSchedule?: string | null;
  /** How often an idle worker looks for a job (pg-boss allows 0.5 s at least). */
  pollingIntervalSeconds?: number;
  /** On stop, how long running jobs may finish on their own before they are asked to abort. */
  stopGraceMs?: number;
  /** How long a running job's lease lasts, how often its process renews it, and how often workers look for lapsed ones. */
  leaseMs?: number;
  leaseRenewMs?: number;
  sweepMs?: number;
  /** How long after a dead job's lease lapsed its work is taken up: the sources' lease (tests shorten it). */
  resumeDelayMs?: number;
  /** How often pg-boss maintains the queue, expiring the entries of polls whose process died (30 s). */
  maintenanceIntervalSeconds?: number;
};

export type JobRunner = JobsApi & {
  /** Installs or migrates the queue schema, creates the queues and, with handlers, starts working. */
  start(): Promise<void>;
  /** Stops taking jobs, lets running ones finish briefly, and records any that could not. */
  stop(): Promise<void>;
  /** Queues a due-sources poll now (skipped when one is already waiting). */
  pollNow(): Promise<void>;
};

const KINDS: readonly JobKind[] = JOB_KIND_NAMES;
const LOST = "The job's process stopped renewing its lease; another worker took the job over.";
/** How often a running job's record is checked for a cancel request. */
const CANCEL_CHECK_MS = 1_000;
/**
 * A running job's lease: renewed every 5 s, lapsed after 20 s without a renewal, looked for every
 * 5 s. The job that takes a dead one's work up starts once the sources the dead process held are
 * free (SOURCE_LEASE_MS after its lease lapsed): within a minute of the death, by a live worker.
 */
const LEASE_MS = 20_000;
const LEASE_RENEW_MS = 5_000;
const SWEEP_MS = 5_000;
const ABORT_WAIT_MS = 1_000;

/** Builds the durable job runner over pg-boss, with progress and outcomes kept in our `jobs` table. */
export async function createJobRunner(options: JobRunnerOptions): Promise<JobRunner> {
  const { database, logger, handlers } = options;
  const repo = jobsRepo(database.db);
  const pollSchedule = options.pollSchedule === undefined ? "* * * * *" : options.pollSchedule;
  const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 2;
  const stopGraceMs = options.stopGraceMs ?? 3_000;
  const working = handlers !== undefined;
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const sweepMs = options.sweepMs ?? SWEEP_MS;
  const resumeDelayMs = options.resumeDelayMs ?? SOURCE_LEASE_MS;

  const boss = new PgBoss({
    // The queue's queries go through the process's own pool rather than a pool of pg-boss's: each
    // connection is a PostgreSQL process, and at rest the site's few idle ones are all it keeps.
    db: { executeSql: (text: string, values?: unknown[]) => database.pool.query(text, values) },
    schema: QUEUE_SCHEMA,
    // Only workers maintain the queue and run the schedule; a web process just sends.
    supervise: working,
    schedule: working && pollSchedule !== null,
    pollingIntervalSeconds,
    maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 30,
  });

  let state: "idle" | "starting" | "started" | "stopping" | "stopped" = "idle";
  let stopped: Promise<void> | null = null;
  const running = new Map<string, AbortController>();
  const workerIds = new Map<string, string>();
  let sweepTimer: NodeJS.Timeout | null = null;
  // The leases of the jobs this process runs. One it lost was ended or taken over elsewhere: it stops.
  const leases = keepLeases<string>({
    renew: (ids) => repo.renewLeases(ids, new Date(Date.now() + leaseMs)),
    everyMs: options.leaseRenewMs ?? LEASE_RENEW_MS,
    onError: (error) => logger.warn({ err: error }, "could not renew the running jobs' leases; trying again"),
    onLost: (ids) => {
      for (const id of ids) {
        logger.warn({ jobId: id }, "a running job lost its lease; it stops here");
        running.get(id)?.abort(new Error(LOST));
      }
    },
  });
  // A minute poll has no row of ours: its queue entry is its lease. One killed with its process
  // expires soon after, and the next poll (one at a time: a stately queue) is not held up for an hour.
  const pollLeases = keepLeases<string>({
    renew: (ids) => repo.renewQueueEntries({ queueSchema: QUEUE_SCHEMA, ids, leaseMs }),
    everyMs: options.leaseRenewMs ?? LEASE_RENEW_MS,
    onError: (error) => logger.warn({ err: error }, "could not renew the running polls' leases; trying again"),
    onLost: (ids) => logger.warn({ jobIds: ids }, "a running poll's queue entry expired; the next poll may start beside it"),
  });

  boss.on("error", (error: unknown) => {
    if (state === "stopping") logger.debug({ err: error }, "job queue error while stopping");
    else logger.error({ err: error }, "job queue error");
  });
  async function send(kind: JobKind, input: Record<string, unknown>, requestedBy: string | null, startAfter: Date | null = null) {
    const jobId = randomUUID();
    await repo.insertQueued({ id: jobId, kind, input, requestedBy });
    try {
      const sent = await boss.send(kind, input, { id: jobId, ...(startAfter ? { startAfter } : {}) });
      if (!sent) throw new Error("the queue did not accept the job");
    } catch (error) {
      await repo.markFailed([jobId], `Could not queue the job: ${errorMessage(error)}`, new Date());
      throw error;
    }
    logger.debug({ jobId, kind, requestedBy, startAfter: startAfter?.toISOString() }, "job queued");
    const workerId = workerIds.get(kind);
    if (workerId && !startAfter) boss.notifyWorker(workerId);
    return { jobId };
  }

  const recoverInterrupted = createRecovery({ repo, boss, logger, resumeDelayMs, send });

  async function runTracked(jobId: string, kind: JobKind) {
    if (!handlers) return;
    const log = logger.child({ jobId, kind });
    const startedAt = new Date();
    const row = await repo.markRunning(jobId, startedAt, new Date(startedAt.getTime() + leaseMs));
    if (!row) {
      // Already finished, or its record is gone: running it again would do the work twice.
      log.warn("job has no queued record; skipped");
      return;
    }
    const controller = new AbortController();
    running.set(jobId, controller);
    leases.hold([jobId]);
    const progress = createProgressWriter({
      write: (p) => repo.updateProgress(jobId, { done: p.done, total: p.total, message: p.message ?? null, counts: p.counts ?? null }),
      onError: (error) => log.warn({ err: error }, "could not store job progress"),
    });
    // A cancel asked of another process reaches this one through the job's record.
    const cancelWatch = setInterval(() => {
      void repo
        .cancelRequested(jobId)
        .then((asked) => {
          if (asked && !controller.signal.aborted) controller.abort(new JobCancelledError());
        })
        .catch((error: unknown) => log.debug({ err: error }, "could not check for a cancel request"));
    }, CANCEL_CHECK_MS);
    const started = Date.now();
    log.debug("job started");
    try {
      const resumedFrom = row.input?.resumed_from;
      const resumedSince = typeof resumedFrom === "string" ? await repo.chainStart(resumedFrom) : null;
      // Checked again here: a row queued by an older release, or written by hand, fails with what is wrong.
      const result = await handlers[kind](parseJobInput(kind, row.input) as never, {
        jobId,
        resumedSince,
        signal: controller.signal,
        reportProgress: (p) => progress.report(p),
      });
      await progress.flush();
      await repo.markSucceeded(jobId, result, new Date());
      log.info({ outcome: "succeeded", durationMs: Date.now() - started, result: resultForLog(result) }, "job succeeded");
    } catch (error) {
      if (controller.signal.reason instanceof JobCancelledError) {
        await progress.flush().catch(() => undefined);
        await repo.markCancelled(jobId, new Date(), null).catch((writeError: unknown) => log.warn({ err: writeError }, "could not record the cancel"));
        log.info({ outcome: "cancelled", durationMs: Date.now() - started }, "job cancelled");
        return;
      }
      // A job cut off by a stop is recorded as such (and resumed later when its kind allows).
      const message = state === "stopping" && controller.signal.aborted ? `${STOPPED} (${errorMessage(error)})` : errorMessage(error);
      try {
        await progress.flush();
        await repo.markFailed([jobId], message, new Date());
      } catch (writeError) {
        log.warn({ err: writeError }, "could not record the job's failure");
      }
      log.error({ outcome: "failed", err: error, durationMs: Date.now() - started }, "job failed");
      // pg-boss records the failure too; the queue has no retries.
      throw error;
    } finally {
      clearInterval(cancelWatch);
      leases.drop(jobId);
      running.delete(jobId);
    }
  }

  async function runPoll(jobId: string, queue: PollQueue) {
    if (!handlers) return;
    const log = logger.child({ jobId, kind: queue });
    const controller = new AbortController();
    running.set(jobId, controller);
    pollLeases.hold([jobId]);
    await pollLeases.renewNow();
    const started = Date.now();
    try {
      const result = resultForLog(await handlers[queue]({ jobId, signal: controller.signal, reportProgress: () => {}, resumedSince: null }));
      // A poll runs every minute and mostly finds nothing due: only one that did something is told.
      const didWork = Object.values(result ?? {}).some((value) => typeof value === "number" && value > 0);
      log[didWork ? "info" : "debug"]({ outcome: "succeeded", durationMs: Date.now() - started, result }, "poll finished");
    } catch (error) {
      log.error({ outcome: "failed", err: error, durationMs: Date.now() - started }, "poll failed; the next one runs as scheduled");
      throw error;
    } finally {
      pollLeases.drop(jobId);
      running.delete(jobId);
    }
  }

  async function startWorking() {
    const workOptions = { pollingIntervalSeconds, batchSize: 1 };
    for (const kind of KINDS) {
      workerIds.set(
        kind,
        await boss.work<Record<string, unknown>>(kind, workOptions, async ([job]) => {
          if (job) await runTracked(job.id, kind);
        }),
      );
    }
    for (const queue of POLL_QUEUES) {
      workerIds.set(
        queue,
        await boss.work(queue, workOptions, async ([job]) => {
          if (job) await runPoll(job.id, queue);
        }),
      );
      if (pollSchedule !== null) {
        await boss.schedule(queue, pollSchedule, {}, { tz: "UTC" });
        // The schedule's first tick can come a minute late; a (re)started worker polls at once.
        await boss.send(queue, {}, {});
      }
    }
  }

  const requireStarted = () => {
    if (state !== "started") throw new Error("the job runner is not started");
  };

  return {
    async enqueue(kind, input, enqueueOptions) {
      requireStarted();
      if (!KINDS.includes(kind)) throw new Error(`unknown job kind: ${String(kind)}`);
      return send(kind, parseJobInput(kind, input), enqueueOptions?.requestedBy ?? null, enqueueOptions?.startAfter ?? null);
    },

    async get(jobId) {
      let row = await repo.findById(jobId);
      // A job interrupted and taken up again is followed to the job doing the rest of its work, so a
      // page watching it sees the work go on rather than an interruption.
      for (let i = 0; row && row.status === "failed" && interruptedError(row.error) && i < MAX_RESUMES_FOLLOWED; i++) {
        const next = await repo.resumedBy(row.id);
        if (!next) break;
        row = next;
      }
      return row ? toView(row) : null;
    },

    async latestUnfinished(kind) {
      const row = await repo.latestUnfinished(kind);
      return row ? toView(row) : null;
    },

    async cancel(jobId) {
      const outcome = await repo.requestCancel(jobId, new Date());
      if (outcome === null) return false;
      logger.debug({ jobId, outcome }, "job cancel requested");
      // A job running in this process stops now; one in another process at its next check.
      if (outcome === "requested") running.get(jobId)?.abort(new JobCancelledError());
      return true;
    },

    async pollNow() {
      requireStarted();
      for (const queue of POLL_QUEUES) {
        await boss.send(queue, {}, {});
        const workerId = workerIds.get(queue);
        if (workerId) boss.notifyWorker(workerId);
      }
    },

    async start() {
      if (state === "stopping" || state === "stopped") throw new Error("a stopped job runner cannot start again");
      if (state !== "idle") return;
      state = "starting";
      const began = Date.now();
      try {
        await boss.start();
        await ensureQueues(boss);
        if (handlers) {
          await startWorking();
          await recoverInterrupted();
          sweepTimer = setInterval(() => void recoverInterrupted(), sweepMs);
          sweepTimer.unref();
        }
      } catch (error) {
        state = "stopping";
        await boss.stop({ graceful: false }).catch(() => {});
        state = "stopped";
        throw new Error(`Cannot start the job runner: ${errorMessage(error)}`, { cause: error });
      }
      state = "started";
      logger.info({ durationMs: Date.now() - began, working, pollSchedule: working ? pollSchedule : null }, "job runner started");
    },

    stop() {
      // Never started, or failed to start (which already released everything).
      if (state === "idle" || (state === "stopped" && !stopped)) return Promise.resolve();
      stopped ??= (async () => {
        state = "stopping";
        if (sweepTimer) clearInterval(sweepTimer);
        // Running jobs get a moment to finish; then they are asked to abort.
        const abortAll = () => {
          for (const controller of running.values()) controller.abort(new Error(STOPPED));
        };
        const abortTimer = setTimeout(abortAll, stopGraceMs);
        try {
          await boss.stop({ graceful: true, wait: true, timeout: stopGraceMs + ABORT_WAIT_MS });
        } catch (error) {
          logger.warn({ err: error }, "the job queue did not stop cleanly");
        } finally {
          clearTimeout(abortTimer);
        }
        const unfinished = [...running.keys()];
        if (unfinished.length > 0) {
          abortAll();
          try {
            await repo.markFailed(unfinished, STOPPED, new Date());
          } catch (error) {
            logger.warn({ err: error }, "could not record the interrupted jobs");
          }
          for (const jobId of unfinished) logger.warn({ jobId }, "job interrupted by shutdown");
        }
        leases.stop();
        pollLeases.stop();
        workerIds.clear();
        state = "stopped";
        logger.info("job runner stopped");
      })();
      return stopped;
    },
  };
}

/** How many resumed jobs get() follows at most. */
const MAX_RESUMES_FOLLOWED = 50;
