import type { JobView } from "~/jobs/types";

/** The line shown while an ingestion job runs: 'Processing 3 of 12 sources...'. */
export function ingestionProgressLine(job: Pick<JobView, "status" | "progress" | "total" | "message">): string {
  if (job.status === "queued") return "Waiting to start...";
  if (job.total !== null && job.total > 0) return `Processing ${Math.min(job.progress, job.total)} of ${job.total} sources...`;
  return job.message?.trim() || "Starting...";
}

/** The three counts of the spec's RSS ingestion result, read defensively from a job's result. */
export type IngestionCounts = { sources_processed: number; total_items_found: number; total_items_processed: number };

/** The counts of a finished ingestion job's result; 0 for any that are missing. */
export function ingestionCounts(result: Record<string, unknown> | null): IngestionCounts {
  const count = (key: keyof IngestionCounts) => {
    const value = result?.[key];
    return typeof value === "number" && Number.isFinite(value) ? value : 0;
  };
  return {
    sources_processed: count("sources_processed"),
    total_items_found: count("total_items_found"),
    total_items_processed: count("total_items_processed"),
  };
}

/** The completion toast's text (spec section 8, RSS ingestion). */
export function ingestionSummary(counts: IngestionCounts): string {
  return `Processed ${counts.sources_processed} sources, found ${counts.total_items_found} items, processed ${counts.total_items_processed} new stories`;
}

/** Where this browser keeps the running ingestion job (so a reload resumes it) and the last finished run. */
export const RUNNING_JOB_KEY = "oddwire.ingestion-job";
export const LAST_RUN_KEY = "oddwire.ingestion-last-run";

/** The last finished ingestion run this browser saw. */
export type LastIngestionRun = { status: "succeeded" | "failed"; finishedAt: string; counts: IngestionCounts | null; error: string | null };

/** The stored last run, or null when there is none or it is not one. */
export function parseLastRun(raw: string | null): LastIngestionRun | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<LastIngestionRun> | null;
    if (!value || (value.status !== "succeeded" && value.status !== "failed") || typeof value.finishedAt !== "string") return null;
    return {
      status: value.status,
      finishedAt: value.finishedAt,
      counts: value.counts && typeof value.counts === "object" ? ingestionCounts(value.counts as unknown as Record<string, unknown>) : null,
      error: typeof value.error === "string" ? value.error : null,
    };
  } catch {
    return null;
  }
}

/** The last-run record of a finished job. */
export function lastRunOf(job: Pick<JobView, "status" | "result" | "error" | "finishedAt">, now: Date): LastIngestionRun {
  const succeeded = job.status === "succeeded";
  return {
    status: succeeded ? "succeeded" : "failed",
    finishedAt: job.finishedAt ?? now.toISOString(),
    counts: succeeded ? ingestionCounts(job.result) : null,
    error: succeeded ? null : (job.error ?? (job.status === "cancelled" ? "The job was cancelled." : "Unknown error")),
  };
}
