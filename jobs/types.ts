/** Background work the web layer can start and watch. */
export type JobKind = "rss-ingestion";

export type JobStatus = "queued" | "running" | "succeeded" | "failed" | "cancelled";

/** A job as the back office sees it: progress while it runs, then its result or error. */
export type JobView = {
  id: string;
  kind: string;
  status: JobStatus;
  progress: number;
  total: number | null;
  message: string | null;
  result: Record<string, unknown> | null;
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
};

/** Told by a running job how far it has got. */
export type ReportProgress = (progress: { done: number; total: number; message?: string }) => Promise<void> | void;

export type JobsApi = {
  enqueue(kind: JobKind, input: Record<string, unknown>, options?: { requestedBy?: string | null }): Promise<{ jobId: string }>;
  get(jobId: string): Promise<JobView | null>;
};
