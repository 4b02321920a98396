import { linkClass, safeHref } from "~/app/components/admin/sources/ui";
import { IMAGE_TEXT } from "~/domain/images/panel-rules";
import { jobResult } from "~/domain/jobs/kinds";
import { resultSummary, runningCounts } from "./image-messages";
import type { FinishedRun } from "./use-image-run";

const BADGE = {
  enhanced: "bg-green-200 text-green-900",
  skipped: "bg-paper-deep text-ink",
  failed: "bg-red-100 text-alarm-ink",
} as const;

/** The run that ended while this page was open: its numbers, and each story's outcome (spec: details of title, success, error). */
export function ImageLastRun({ run }: { run: FinishedRun }) {
  const { job } = run;
  const result = jobResult("enhance-images", job);
  let summary: string;
  if (job.status === "succeeded") summary = resultSummary(result);
  else if (job.status === "cancelled") {
    const c = runningCounts(job);
    summary = `Cancelled after ${c.done}: ${c.enhanced} enhanced, ${c.skipped} skipped, ${c.failed} failed`;
  } else summary = job.error?.trim() || IMAGE_TEXT.defaultFailure;
  return (
    <div className="mt-5 border-t-2 border-ink/10 pt-3 text-sm">
      <h3 className="font-bold">Last run</h3>
      <p className="mt-1">{summary}</p>
      {result.details.length > 0 ? (
        <ul tabIndex={0} aria-label="Stories of the last run" className="mt-2 max-h-64 space-y-1.5 overflow-y-auto rounded-lg border-2 border-ink/15 bg-paper/60 p-2">
          {result.details.map((detail) => {
            const href = detail.outcome === "enhanced" ? safeHref(detail.imageUrl) : null;
            return (
              <li key={detail.storyId} className="flex flex-wrap items-baseline gap-x-2">
                <span className={`rounded-full px-2 py-0.5 text-xs font-bold ${BADGE[detail.outcome]}`}>{detail.outcome}</span>
                <span className="font-semibold">{detail.title}</span>
                <span className="text-ink/60">ID {detail.storyId}</span>
                {href ? (
                  <a href={href} target="_blank" rel="noopener noreferrer" aria-label={`New image for ${detail.title}`} className={`${linkClass} break-all`}>
                    New image
                  </a>
                ) : detail.error ? (
                  <span className="text-ink/75">{detail.error}</span>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : null}
    </div>
  );
}
