import type { EnhancementDetail, EnhancementResult } from "~/domain/images/enhance";
import { estimateText, IMAGE_TEXT, TOAST_MS, type Throughput } from "~/domain/images/panel-rules";
import { jobResult } from "~/domain/jobs/kinds";
import type { JobView } from "~/jobs/types";
import { plural } from "~/app/lib/format";

// The image panel's words and numbers, pure so they are tested as a table.

/**
 * Which button started a run: Enhance All (the bulk batch), a quick batch of 10 or 50, the
 * single-story test, a retry of stories that failed for good, or a run this page did not start
 * (another editor's, or one picked up after a reload).
 */
export type RunKind = "all" | "quick" | "single" | "retry" | "other";

/** A toast as the panel shows it: its tone, words and how long it stays. */
export type PanelToast = { tone: "success" | "error" | "info"; title: string; description: string; duration: number };

/** The spec's failure title of each kind of run (section 8). */
export const FAILURE_TITLE: Record<RunKind, string> = {
  all: IMAGE_TEXT.bulkFailed,
  quick: IMAGE_TEXT.enhancementFailed,
  single: IMAGE_TEXT.testFailed,
  retry: IMAGE_TEXT.enhancementFailed,
  other: IMAGE_TEXT.enhancementFailed,
};

const SUCCESS_TITLE: Record<RunKind, string> = {
  all: "Bulk Enhancement Complete",
  quick: "Enhancement Complete",
  single: "Test Complete",
  retry: "Retry Complete",
  other: "Enhancement Complete",
};

export const CANCELLED_TITLE = "Enhancement Cancelled";

/** The analysis toast's line: how many of the newest stories have an image. */
export function analysisSummary(counts: { total: number; withImages: number }): string {
  if (counts.total === 0) return "There are no stories to analyze yet.";
  return `${counts.withImages} of ${plural(counts.total, "recent story", "recent stories")} ${counts.total === 1 ? "has" : "have"} images`;
}

/** The result's numbers in one line: 'Processed 10: 6 enhanced, 3 skipped, 1 failed'. */
export function resultSummary(result: Pick<EnhancementResult, "processed" | "enhanced" | "skipped" | "failed">): string {
  return `Processed ${result.processed}: ${result.enhanced} enhanced, ${result.skipped} skipped, ${result.failed} failed`;
}

/** What one story's outcome was, in a sentence: its new image, or why not. */
export function detailLine(detail: EnhancementDetail): string {
  if (detail.outcome === "enhanced") return `New image: ${detail.imageUrl ?? "(no address reported)"}`;
  if (detail.outcome === "skipped") return `Skipped: ${detail.error ?? "nothing better to do"}`;
  return detail.error ?? IMAGE_TEXT.defaultFailure;
}

const count = (value: unknown) => (typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0);

/** A running job's counts so far (the job reports them with its progress). */
export function runningCounts(job: Pick<JobView, "progress" | "total" | "counts">): { done: number; total: number | null; enhanced: number; failed: number; skipped: number } {
  const total = job.total;
  return {
    done: total !== null ? Math.min(job.progress, total) : job.progress,
    total,
    enhanced: count(job.counts?.enhanced),
    failed: count(job.counts?.failed),
    skipped: count(job.counts?.skipped),
  };
}

/** The line over the progress bar. */
export function progressLine(job: Pick<JobView, "status" | "progress" | "total" | "counts" | "cancelRequested"> | null): string {
  if (!job) return "Starting...";
  if (job.cancelRequested) return "Stopping after the stories in hand...";
  if (job.status === "queued") return "Waiting to start...";
  const { done, total } = runningCounts(job);
  if (total === null) return "Choosing the stories...";
  return `Enhancing images: ${done} of ${plural(total, "story", "stories")}`;
}

/** The toast a run ends with: its numbers on success, the spec's failure titles otherwise. */
export function endToast(kind: RunKind, job: JobView | null): PanelToast {
  const failed = (description: string): PanelToast => ({ tone: "error", title: FAILURE_TITLE[kind], description, duration: TOAST_MS.standard });
  if (!job) return failed(IMAGE_TEXT.defaultFailure);
  if (job.status === "cancelled") {
    const c = runningCounts(job);
    return {
      tone: "info",
      title: CANCELLED_TITLE,
      description: `The run was cancelled after ${c.done} of ${plural(c.total ?? c.done, "story", "stories")}: ${c.enhanced} enhanced, ${c.skipped} skipped, ${c.failed} failed.`,
      duration: TOAST_MS.standard,
    };
  }
  if (job.status !== "succeeded") return failed(job.error?.trim() || IMAGE_TEXT.defaultFailure);
  const result = jobResult("enhance-images", job);
  if (kind === "single") {
    const detail = result.details[0];
    if (!detail) return failed(IMAGE_TEXT.defaultFailure);
    if (detail.outcome === "failed") return failed(detailLine(detail));
    return { tone: "success", title: SUCCESS_TITLE.single, description: `${resultSummary(result)}. ${detailLine(detail)}`, duration: TOAST_MS.standard };
  }
  return { tone: "success", title: SUCCESS_TITLE[kind], description: resultSummary(result), duration: TOAST_MS.bulkSuccess };
}

/** How long an action's toast stays: the missing-ID message 3 s, the others 5 s. */
export function actionToastDuration(title: string): number {
  return title === IMAGE_TEXT.storyIdRequired.title ? TOAST_MS.missingId : TOAST_MS.standard;
}

/** What the confirmation before a batch says: how many stories, and the one estimate (from measured speed, or none yet). */
export function batchConfirmation(batchSize: number, needingWork: number, throughput: Throughput | null): { title: string; lines: string[]; estimate: string } {
  const stories = Math.min(batchSize, needingWork);
  const which =
    batchSize < needingWork
      ? `The ${batchSize} newest of the ${needingWork} stories that need work will be checked for a larger image.`
      : `${needingWork === 1 ? "The 1 story" : `All ${needingWork} stories`} that ${needingWork === 1 ? "needs" : "need"} work will be checked for a larger image (a batch of ${batchSize}).`;
  return { title: `Enhance images of ${plural(stories, "story", "stories")}?`, lines: [which], estimate: estimateText(stories, throughput) };
}

/** What the confirmation before retrying every story that failed for good says. */
export function retryConfirmation(failed: number, throughput: Throughput | null): { title: string; lines: string[]; estimate: string } {
  return {
    title: `Retry ${plural(failed, "story", "stories")}?`,
    lines: [`${failed === 1 ? "The story" : `The ${failed} stories`} whose last attempt failed for a lasting reason will be looked at again.`],
    estimate: estimateText(failed, throughput),
  };
}

/** The words of the action's other answers. */
export const IMAGE_PANEL_TEXT = {
  alreadyRunning: { title: "Already running", description: "Another image enhancement run is going: its progress is shown here." },
  nothingToDo: { title: "Nothing to enhance", description: "No story needs image enhancement right now." },
  alreadyFinished: { title: "Nothing to cancel", description: "That run had already finished." },
  cancelFailed: "Failed to cancel the run",
} as const;

/** A run this browser follows, as kept in sessionStorage (so a reload knows which button started it). */
export type FollowedRun = { jobId: string; kind: RunKind };

const KINDS: readonly RunKind[] = ["all", "quick", "single", "retry", "other"];

/** A kept run as its page reads it (see useFollowedJob), or null when it is not one. */
export function parseFollowedRun(value: { jobId: string } & Record<string, unknown>): FollowedRun | null {
  return KINDS.includes(value.kind as RunKind) ? { jobId: value.jobId, kind: value.kind as RunKind } : null;
}

/**
 * How a refused action is told: the generic text of a failure that is not the
 * editor's doing, and, for the analysis, the spec's one description whatever went wrong.
 */
export function actionFailure(intent: string): { fallback: string; description?: string } {
  if (intent === "analyze-images") return { fallback: IMAGE_TEXT.statsFailed.description, description: IMAGE_TEXT.statsFailed.description };
  if (intent === "cancel-images") return { fallback: IMAGE_PANEL_TEXT.cancelFailed };
  return { fallback: IMAGE_TEXT.defaultFailure };
}

/** The title of a refused action's toast: the spec's per button, and 'Story ID Required' for a blank ID. */
export function actionFailureTitle(intent: string, mode: string | undefined, fields: Record<string, string> | undefined): string {
  if (intent === "analyze-images") return IMAGE_TEXT.statsFailed.title;
  if (intent === "enhance-bulk") return FAILURE_TITLE[mode === "all" ? "all" : "quick"];
  if (intent === "enhance-test") return fields?.storyId === IMAGE_TEXT.storyIdRequired.description ? IMAGE_TEXT.storyIdRequired.title : FAILURE_TITLE.single;
  if (intent === "retry-images") return FAILURE_TITLE.retry;
  return "Error";
}
