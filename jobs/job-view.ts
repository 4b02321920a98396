import type { jobsRepo } from "~/db/repos/jobs.repo";
import type { JobView } from "./types";

// How a job's record is shown: to a screen (`toView`) and in the log line of its end (`resultForLog`).

const MAX_LOGGED_TEXT = 300;

/**
 * A job's result as its log line keeps it: the counts and short facts at its top level. Lists (a
 * queue scrape's rows, a discovery's sources) stay in the job's record, where the back office reads them.
 */
export function resultForLog(result: unknown): Record<string, string | number | boolean | null> | null {
  if (result === null || typeof result !== "object" || Array.isArray(result)) return null;
  const kept: Record<string, string | number | boolean | null> = {};
  for (const [key, value] of Object.entries(result)) {
    if (value === null || typeof value === "number" || typeof value === "boolean") kept[key] = value;
    else if (typeof value === "string") kept[key] = value.length > MAX_LOGGED_TEXT ? `${value.slice(0, MAX_LOGGED_TEXT)}...` : value;
  }
  return kept;
}

export function toView(row: NonNullable<Awaited<ReturnType<ReturnType<typeof jobsRepo>["findById"]>>>): JobView {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    progress: row.progress,
    total: row.total,
    message: row.message,
    counts: row.counts ?? null,
    cancelRequested: row.cancelRequestedAt !== null,
    result: row.result ?? null,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}
