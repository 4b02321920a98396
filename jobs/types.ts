import type { JobInput, JobKind } from "~/domain/jobs/kinds";

export type { JobKind };

export type JobStatus = "queued" | "running" | "succeeded" | "failed" | "cancelled";

/** A job as the back office sees it: progress while it runs, then its result or error. */
export type JobView = {
  id: string;
  kind: string;
  status: JobStatus;
  progress: number;
  total: number | null;
  message: string | null;
  /** Running counts while the job works (enhanced, failed, skipped...), null when it reports none. */
  counts: Record<string, number> | null;
  /** Someone asked the job to stop; it ends as cancelled. */
  cancelRequested: boolean;
  result: Record<string, unknown> | null;
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
};

export type JobsApi = {
  /** Queues a job; with `startAfter` it waits until then (a scheduled post), surviving restarts. */
  enqueue<K extends JobKind>(kind: K, input: JobInput<K>, options?: { requestedBy?: string | null; startAfter?: Date | null }): Promise<{ jobId: string }>;
  get(jobId: string): Promise<JobView | null>;
  /** The newest job of a kind that has not finished, or null (a page following work after a reload). */
  latestUnfinished(kind: JobKind): Promise<JobView | null>;
  /** Asks a queued or running job to stop; false when it had already finished or does not exist. */
  cancel(jobId: string): Promise<boolean>;
};
