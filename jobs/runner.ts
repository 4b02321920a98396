import { randomUUID } from "node:crypto";
import PgBoss from "pg-boss";
import type { Logger } from "pino";
import { pgliteOf, type Database } from "~/db/client";
import { jobsRepo } from "~/db/repos/jobs.repo";
import { pgliteExecutor, type SqlExecutor } from "./pglite-executor";
import { createProgressWriter } from "./progress-writer";
import type { JobKind, JobsApi, JobView, ReportProgress } from "./types";

/** What a running job is given: its id, a way to report progress, and a signal that asks it to stop. */
export type JobContext = { jobId: string; reportProgress: ReportProgress; signal: AbortSignal };

/** The work behind each queue; server/ passes in the real ones. */
export type JobHandlers = {
  /** The manual trigger: one full cycle over every active source. */
  "rss-ingestion": (input: { use_canonical?: boolean }, ctx: JobContext) => Promise<Record<string, unknown>>;
  /** The periodic poll: one cycle over the sources that are due. */
  "rss-poll": (ctx: JobContext) => Promise<unknown>;
};

export type JobRunnerOptions = {
  database: Database;
  logger: Logger;
  /** Without handlers this process only queues jobs and reads them (ROLE=web). */
  handlers?: JobHandlers;
  /** Cron expression (UTC) for the due-sources poll; every minute by default; null for none. */
  pollSchedule?: string | null;
  /** PostgreSQL: pg-boss opens its own pool on this URL; by default the app pool's URL. */
  connectionString?: string;
  /** Size of pg-boss's own pool on PostgreSQL. */
  poolSize?: number;
  /** How often an idle worker looks for a job (pg-boss allows 0.5 s at least). */
  pollingIntervalSeconds?: number;
  /** On stop, how long running jobs may finish on their own before they are asked to abort. */
  stopGraceMs?: number;
};

export type JobRunner = JobsApi & {
  /** Installs or migrates the queue schema, creates the queues and, with handlers, starts working. */
  start(): Promise<void>;
  /** Stops taking jobs, lets running ones finish briefly, and records any that could not. */
  stop(): Promise<void>;
  /** Queues a due-sources poll now (skipped when one is already waiting). */
  pollNow(): Promise<void>;
};

export const QUEUE_SCHEMA = "pgboss";
const POLL_QUEUE = "rss-poll";
const KINDS: readonly JobKind[] = ["rss-ingestion"];
const ORPHAN_GRACE_SECONDS = 60;
const ABORT_WAIT_MS = 1_000;

// No automatic retries: a manual run reports its failure, and the poll simply runs again.
const QUEUES: PgBoss.Queue[] = [
  { name: "rss-ingestion", policy: "standard", retryLimit: 0, expireInSeconds: 2 * 60 * 60 },
  // stately: at most one poll waiting and one running, so slow cycles never pile up.
  { name: POLL_QUEUE, policy: "stately", retryLimit: 0, expireInSeconds: 60 * 60, retentionMinutes: 10 },
];

/** Builds the durable job runner over pg-boss, with progress and outcomes kept in our `jobs` table. */
export async function createJobRunner(options: JobRunnerOptions): Promise<JobRunner> {
  const { database, logger, handlers } = options;
  const repo = jobsRepo(database.db);
  const pollSchedule = options.pollSchedule === undefined ? "* * * * *" : options.pollSchedule;
  const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 2;
  const stopGraceMs = options.stopGraceMs ?? 3_000;
  const working = handlers !== undefined;

  const executor: SqlExecutor | null = database.kind === "pglite" ? pgliteExecutor(pgliteOf(database)) : null;
  const boss = new PgBoss({
    ...(executor
      ? { db: executor as unknown as PgBoss.Db }
      : { connectionString: options.connectionString ?? poolConnectionString(database), max: options.poolSize ?? 4 }),
    schema: QUEUE_SCHEMA,
    application_name: "oddwire-jobs",
    // Only workers maintain the queue and run the schedule; a web process just sends.
    supervise: working,
    schedule: working && pollSchedule !== null,
    pollingIntervalSeconds,
  });

  let state: "idle" | "starting" | "started" | "stopping" | "stopped" = "idle";
  let stopped: Promise<void> | null = null;
  const running = new Map<string, AbortController>();
  const workerIds = new Map<string, string>();

  boss.on("error", (error: unknown) => {
    if (state === "stopping") logger.debug({ err: error }, "job queue error while stopping");
    else logger.error({ err: error }, "job queue error");
  });
  boss.on("maintenance", () => void failOrphans());

  async function failOrphans() {
    try {
      const ids = await repo.failOrphans({
        queueSchema: QUEUE_SCHEMA,
        graceSeconds: ORPHAN_GRACE_SECONDS,
        error: "The job was interrupted before it finished (the worker stopped or the job timed out).",
      });
      for (const jobId of ids) logger.warn({ jobId }, "job interrupted before it finished; marked failed");
    } catch (error) {
      logger.warn({ err: error }, "could not check for interrupted jobs");
    }
  }

  // One step, one queue at a time: concurrent createQueue calls can deadlock (40P01).
  async function ensureQueues() {
    for (const queue of QUEUES) {
      for (let attempt = 1; ; attempt++) {
        try {
          if (await boss.getQueue(queue.name)) await boss.updateQueue(queue.name, queue);
          else await boss.createQueue(queue.name, queue);
          break;
        } catch (error) {
          // Another worker booting at the same moment; its queue is as good as ours.
          if (attempt >= 3 || (error as { code?: string }).code !== "40P01") throw error;
          await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
        }
      }
    }
  }

  async function runTracked(jobId: string, kind: JobKind) {
    if (!handlers) return;
    const log = logger.child({ jobId, kind });
    const row = await repo.markRunning(jobId, new Date());
    if (!row) {
      // Already finished, or its record is gone: running it again would do the work twice.
      log.warn("job has no queued record; skipped");
      return;
    }
    const controller = new AbortController();
    running.set(jobId, controller);
    const progress = createProgressWriter({
      write: (p) => repo.updateProgress(jobId, p),
      onError: (error) => log.warn({ err: error }, "could not store job progress"),
    });
    const started = Date.now();
    log.info("job started");
    try {
      const result = await handlers[kind]((row.input ?? {}) as Parameters<JobHandlers[JobKind]>[0], {
        jobId,
        signal: controller.signal,
        reportProgress: (p) => progress.report({ done: p.done, total: p.total, message: p.message ?? null }),
      });
      await progress.flush();
      await repo.markSucceeded(jobId, result, new Date());
      log.info({ durationMs: Date.now() - started, result }, "job succeeded");
    } catch (error) {
      const message = errorMessage(error);
      try {
        await progress.flush();
        await repo.markFailed([jobId], message, new Date());
      } catch (writeError) {
        log.warn({ err: writeError }, "could not record the job's failure");
      }
      log.error({ err: error, durationMs: Date.now() - started }, "job failed");
      // pg-boss records the failure too; the queue has no retries.
      throw error;
    } finally {
      running.delete(jobId);
    }
  }

  async function runPoll(jobId: string) {
    if (!handlers) return;
    const log = logger.child({ jobId, kind: POLL_QUEUE });
    const controller = new AbortController();
    running.set(jobId, controller);
    try {
      const result = await handlers[POLL_QUEUE]({ jobId, signal: controller.signal, reportProgress: () => {} });
      log.debug({ result }, "poll finished");
    } catch (error) {
      log.error({ err: error }, "poll failed; the next one runs as scheduled");
      throw error;
    } finally {
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
    workerIds.set(
      POLL_QUEUE,
      await boss.work(POLL_QUEUE, workOptions, async ([job]) => {
        if (job) await runPoll(job.id);
      }),
    );
    if (pollSchedule !== null) {
      await boss.schedule(POLL_QUEUE, pollSchedule, {}, { tz: "UTC" });
      // The schedule's first tick can come a minute late; a (re)started worker polls at once.
      await boss.send(POLL_QUEUE, {}, {});
    }
  }

  const requireStarted = () => {
    if (state !== "started") throw new Error("the job runner is not started");
  };

  return {
    async enqueue(kind, input, enqueueOptions) {
      requireStarted();
      if (!KINDS.includes(kind)) throw new Error(`unknown job kind: ${String(kind)}`);
      const jobId = randomUUID();
      const requestedBy = enqueueOptions?.requestedBy ?? null;
      await repo.insertQueued({ id: jobId, kind, input, requestedBy });
      try {
        const sent = await boss.send(kind, input, { id: jobId });
        if (!sent) throw new Error("the queue did not accept the job");
      } catch (error) {
        await repo.markFailed([jobId], `Could not queue the job: ${errorMessage(error)}`, new Date());
        throw error;
      }
      logger.info({ jobId, kind, requestedBy }, "job queued");
      const workerId = workerIds.get(kind);
      if (workerId) boss.notifyWorker(workerId);
      return { jobId };
    },

    async get(jobId) {
      const row = await repo.findById(jobId);
      return row ? toView(row) : null;
    },

    async pollNow() {
      requireStarted();
      await boss.send(POLL_QUEUE, {}, {});
      const workerId = workerIds.get(POLL_QUEUE);
      if (workerId) boss.notifyWorker(workerId);
    },

    async start() {
      if (state === "stopping" || state === "stopped") throw new Error("a stopped job runner cannot start again");
      if (state !== "idle") return;
      state = "starting";
      const began = Date.now();
      try {
        await boss.start();
        await ensureQueues();
        if (handlers) {
          await failOrphans();
          await startWorking();
        }
      } catch (error) {
        state = "stopping";
        await boss.stop({ graceful: false }).catch(() => {});
        await executor?.close();
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
        // Running jobs get a moment to finish; then they are asked to abort.
        const abortAll = () => {
          for (const controller of running.values()) controller.abort(new Error("the job runner is stopping"));
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
            await repo.markFailed(unfinished, "The worker stopped before the job finished.", new Date());
          } catch (error) {
            logger.warn({ err: error }, "could not record the interrupted jobs");
          }
          for (const jobId of unfinished) logger.warn({ jobId }, "job interrupted by shutdown");
        }
        await executor?.close();
        workerIds.clear();
        state = "stopped";
        logger.info("job runner stopped");
      })();
      return stopped;
    },
  };
}

function toView(row: NonNullable<Awaited<ReturnType<ReturnType<typeof jobsRepo>["findById"]>>>): JobView {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    progress: row.progress,
    total: row.total,
    message: row.message,
    result: row.result ?? null,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// The app pool's own URL, so tests (one database per file) need not pass it separately.
function poolConnectionString(database: Database): string {
  const url = (database.db as unknown as { $client?: { options?: { connectionString?: string } } }).$client?.options?.connectionString;
  if (!url) throw new Error("the job runner needs the PostgreSQL connection string");
  return url;
}
