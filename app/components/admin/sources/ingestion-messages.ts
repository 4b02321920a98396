import type { FailedSource } from "~/domain/sources/sources";
import { jobResult, type JobResult } from "~/domain/jobs/kinds";
import type { JobView } from "~/jobs/types";
import { z } from "zod";
import type { ActionResult } from "~/app/lib/action-toast";

/** The spec's toast for a cycle that failed, or could not start. */
export const INGESTION_FAILED = { title: "RSS Ingestion Failed", description: "Check the console for error details." };

/** 'Trigger RSS Ingestion' (the sources page's `ingest` intent): with `useCanonical`, items are read at their canonical URL. */
export const IngestForm = z.object({ useCanonical: z.enum(["true", "false"]).default("false").transform((value) => value === "true") });
/** What the `ingest` intent answers: the queued cycle's job id, or a refusal's toast. */
export type IngestAnswer = { ok: true; jobId: string } | ActionResult;

/** The line shown while an ingestion job runs: 'Processing 3 of 12 sources...'. */
export function ingestionProgressLine(job: Pick<JobView, "status" | "progress" | "total" | "message">): string {
  if (job.status === "queued") return "Waiting to start...";
  if (job.total !== null && job.total > 0) return `Processing ${Math.min(job.progress, job.total)} of ${job.total} sources...`;
  return job.message?.trim() || "Starting...";
}

/** The three counts of the spec's RSS ingestion result. */
export type IngestionCounts = JobResult<"rss-ingestion">;

/** The RSS ingestion completion toast's text. */
export function ingestionSummary(counts: IngestionCounts): string {
  return `Processed ${counts.sources_processed} sources, found ${counts.total_items_found} items, processed ${counts.total_items_processed} new stories`;
}

/** Where the Sources page lists only the sources in trouble. */
export const TROUBLED_SOURCES_HREF = "/admin/sources?trouble=1";

/** How many failed sources a summary names before it says how many more. */
const NAMED_FAILURES = 3;

/**
 * Our own line beside the spec's completion text when some sources failed: how many, which, and why
 * ('2 of 3 sources failed: Odd Feed (HTTP 404); Weird Wire (DNS failure).'). Null when none did.
 */
export function ingestionFailureSummary(failed: FailedSource[], processed: number): string | null {
  if (failed.length === 0) return null;
  const total = Math.max(processed, failed.length);
  const named = failed.slice(0, NAMED_FAILURES).map((f) => `${f.name} (${f.error})`);
  const more = failed.length > NAMED_FAILURES ? `; and ${failed.length - NAMED_FAILURES} more` : "";
  const how = failed.length < total ? `${failed.length} of ${total} sources` : total === 1 ? "The one source" : `All ${total} sources`;
  return `${how} failed: ${named.join("; ")}${more}.`;
}

/** Where this browser keeps the running ingestion job (so a reload resumes it) and the last finished run. */
export const RUNNING_JOB_KEY = "oddwire.ingestion-job";
export const LAST_RUN_KEY = "oddwire.ingestion-last-run";

/** The last finished ingestion run this browser saw, with the sources that failed in it. */
export type LastIngestionRun = { status: "succeeded" | "failed"; finishedAt: string; counts: IngestionCounts | null; error: string | null; failed: FailedSource[] };

function failedSourcesOf(value: unknown): FailedSource[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (f): f is FailedSource => !!f && typeof f === "object" && typeof f.id === "number" && typeof f.name === "string" && typeof f.error === "string",
  );
}

/** The stored last run, or null when there is none or it is not one. */
export function parseLastRun(raw: string | null): LastIngestionRun | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<LastIngestionRun> | null;
    if (!value || (value.status !== "succeeded" && value.status !== "failed") || typeof value.finishedAt !== "string") return null;
    return {
      status: value.status,
      finishedAt: value.finishedAt,
      counts: value.counts && typeof value.counts === "object" ? jobResult("rss-ingestion", { result: value.counts }) : null,
      error: typeof value.error === "string" ? value.error : null,
      failed: failedSourcesOf(value.failed),
    };
  } catch {
    return null;
  }
}

/** The last-run record of a finished job, with the sources that failed in it. */
export function lastRunOf(job: Pick<JobView, "status" | "result" | "error" | "finishedAt">, now: Date, failed: FailedSource[] = []): LastIngestionRun {
  const succeeded = job.status === "succeeded";
  return {
    status: succeeded ? "succeeded" : "failed",
    finishedAt: job.finishedAt ?? now.toISOString(),
    counts: succeeded ? jobResult("rss-ingestion", job) : null,
    error: succeeded ? null : (job.error ?? (job.status === "cancelled" ? "The job was cancelled." : "Unknown error")),
    failed,
  };
}
