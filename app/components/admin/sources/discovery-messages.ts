import type { ActionResult } from "~/app/lib/action-toast";
import { plural } from "~/app/lib/format";
import { jobResult } from "~/domain/jobs/kinds";
import type { JobView } from "~/jobs/types";

export const DISCOVERY_COMPLETE = "Discovery complete";
export const DISCOVERY_FAILED = "Discovery failed";

/** What the Sources page's "discover" intent answers: the queued job, or the failure toast. */
export type DiscoverAnswer = { ok: true; jobId: string } | ActionResult;

/** Where this browser keeps a source's running discovery job, so a reload or a tab switch resumes it. */
export const discoveryJobKey = (sourceId: number) => `oddwire.discovery-job.${sourceId}`;

/** The line under 'Discover now' while its job runs. */
export function discoveryProgressLine(job: Pick<JobView, "status"> | null): string {
  if (!job || job.status === "queued") return "Waiting to start...";
  return "Reading robots.txt, sitemaps and start pages...";
}

export type DiscoveryToast = { tone: "success" | "error"; title: string; description: string };

/** The toast for a finished (or lost) discovery job of one source. */
export function discoveryToast(job: Pick<JobView, "status" | "result" | "error"> | null, sourceId: number): DiscoveryToast {
  const failed = (description: string): DiscoveryToast => ({ tone: "error", title: DISCOVERY_FAILED, description });
  if (!job) return failed("The discovery could not be followed to its end. Reload the page to see the source's last run.");
  if (job.status === "cancelled") return failed("The discovery was cancelled.");
  if (job.status !== "succeeded") return failed(job.error ?? "Unknown error");
  const report = jobResult("crawl-discovery", job).sources.find((r) => r.source_id === sourceId);
  // The job skips a source another discovery already holds.
  if (!report) return failed("This source was not discovered: another discovery of it is still running. Try again when it has finished.");
  if (report.failed) return failed(report.errors[0] ?? "Nothing could be read from the site.");
  const problems = report.errors.length > 0 ? ` ${plural(report.errors.length, "problem", "problems")}, the first: ${report.errors[0]}` : "";
  return {
    tone: "success",
    title: DISCOVERY_COMPLETE,
    description: `Found ${plural(report.found, "URL", "URLs")}, queued ${report.queued} new, skipped ${report.skipped_robots} by robots.txt, ${report.skipped_known} already known.${problems}`,
  };
}
