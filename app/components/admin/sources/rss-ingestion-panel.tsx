import { useId, useMemo, useState } from "react";
import { Link } from "react-router";
import { formatDate, formatTime } from "~/app/lib/format";
import { IngestionTrigger, useLastIngestionRun } from "./ingestion-trigger";
import { ingestionFailureSummary, parseLastRun, TROUBLED_SOURCES_HREF, type LastIngestionRun } from "./ingestion-messages";
import { panelClass } from "./ui";

/** The dashboard's RSS Ingestion panel: run a cycle now, optionally with canonical URLs, and see the last result. */
export function RssIngestionPanel() {
  const id = useId();
  const [useCanonical, setUseCanonical] = useState(false);
  const raw = useLastIngestionRun();
  const lastRun = useMemo(() => parseLastRun(raw), [raw]);
  return (
    <section aria-labelledby={`${id}-title`} className={panelClass}>
      <h2 id={`${id}-title`} className="font-display text-2xl font-extrabold">
        RSS Ingestion
      </h2>
      <p className="mt-1 text-sm text-ink/70">Fetch every active RSS source now instead of waiting for its next scheduled poll. New items arrive under Stories, Pending.</p>
      <div className="mt-4 flex flex-wrap items-start gap-x-6 gap-y-3">
        <IngestionTrigger useCanonical={useCanonical} align="start" />
        <label htmlFor={`${id}-canonical`} className="flex max-w-md items-start gap-2 py-2 text-sm">
          <input id={`${id}-canonical`} type="checkbox" checked={useCanonical} onChange={(event) => setUseCanonical(event.target.checked)} className="mt-0.5 h-4 w-4 accent-ufo" />
          <span>
            <span className="font-bold">Use canonical URLs</span>
            <span className="block text-ink/70">Open each new article and prefer its canonical link. Slower, but catches duplicates behind tracking links.</span>
          </span>
        </label>
      </div>
      <div className="mt-4 border-t-2 border-ink/10 pt-3 text-sm">
        <h3 className="font-bold">Last result</h3>
        {lastRun ? (
          <LastResult run={lastRun} />
        ) : (
          <p className="mt-1 text-ink/70">No ingestion has been run from this browser yet.</p>
        )}
      </div>
    </section>
  );
}

// A run that finished but could not fetch some sources is not a plain success: it says so, and why.
const OUTCOME = {
  complete: { label: "Complete", className: "bg-green-200 text-green-900" },
  problems: { label: "Complete, with failures", className: "bg-yellow-200 text-yellow-900" },
  failed: { label: "Failed", className: "bg-red-100 text-alarm-ink" },
} as const;

/** The last run: how it ended, when, its counts (or error), and the sources that failed in it. */
function LastResult({ run }: { run: LastIngestionRun }) {
  const outcome = run.status !== "succeeded" ? OUTCOME.failed : run.failed.length > 0 ? OUTCOME.problems : OUTCOME.complete;
  const problems = run.counts ? ingestionFailureSummary(run.failed, run.counts.sources_processed) : null;
  return (
    <>
      <p className="mt-1">
        <span className={`mr-2 rounded-full px-2 py-0.5 text-xs font-bold ${outcome.className}`}>{outcome.label}</span>
        <time dateTime={run.finishedAt}>{`${formatDate(run.finishedAt)} ${formatTime(run.finishedAt)}`}</time>
        {" · "}
        {run.counts
          ? `${run.counts.sources_processed} sources processed, ${run.counts.total_items_found} items found, ${run.counts.total_items_processed} new stories`
          : run.error}
      </p>
      {problems ? (
        <p className="mt-2 rounded-lg border-2 border-yellow-600 bg-yellow-50 px-3 py-2">
          {problems}{" "}
          <Link to={TROUBLED_SOURCES_HREF} className="font-bold text-ufo underline">
            Show the failing sources
          </Link>
        </p>
      ) : null}
    </>
  );
}
