import { useSyncExternalStore } from "react";
import { useFetcher, useNavigate, useRevalidator } from "react-router";
import { toast } from "sonner";
import type { FailedSource } from "~/domain/sources/sources";
import { jobResult } from "~/domain/jobs/kinds";
import type { JobView } from "~/jobs/types";
import { requestJson } from "~/app/components/admin/admin-fetch";
import { readStorage, writeStorage } from "~/app/components/admin/browser-storage";
import {
  INGESTION_FAILED,
  type IngestAnswer,
  ingestionFailureSummary,
  ingestionProgressLine,
  ingestionSummary,
  LAST_RUN_KEY,
  lastRunOf,
  RUNNING_JOB_KEY,
  TROUBLED_SOURCES_HREF,
} from "./ingestion-messages";
import { useFollowAnswer, useFollowedJob } from "~/app/components/admin/job-poll";
import { Spinner } from "./spinner";

// The last finished run is kept in localStorage, for the panel's last-run line.
const CHANGED = "oddwire:ingestion-changed";

function subscribe(onChange: () => void) {
  window.addEventListener(CHANGED, onChange);
  return () => window.removeEventListener(CHANGED, onChange);
}

function rememberLastRun(job: JobView, failed: FailedSource[]) {
  writeStorage("local", LAST_RUN_KEY, JSON.stringify(lastRunOf(job, new Date(), failed)));
  window.dispatchEvent(new Event(CHANGED));
}

/** The last finished ingestion run this browser kept, for the panel's last-run line. */
export function useLastIngestionRun(): string | null {
  return useSyncExternalStore(subscribe, () => readStorage("local", LAST_RUN_KEY), () => null);
}

/** The sources whose fetch failed in a finished run; none when that cannot be read (logged). */
async function failedSourcesOf(jobId: string): Promise<FailedSource[]> {
  const answer = await requestJson<{ failedSources: FailedSource[] }>(`/admin/api/ingestion?job=${encodeURIComponent(jobId)}`);
  if (answer.kind === "ok") return answer.body.failedSources;
  console.error("Could not read which sources failed in the ingestion run:", answer.message ?? answer);
  return [];
}

/**
 * The 'Trigger RSS Ingestion' button: queues a cycle, shows its progress, then the spec's toasts;
 * when sources failed, the completion says how many, which and why, with a way to them.
 */
export function IngestionTrigger({ useCanonical = false, align = "end" }: { useCanonical?: boolean; align?: "start" | "end" } = {}) {
  // Started as every job is: the sources page's action (its `ingest` intent), from this page or the dashboard.
  const fetcher = useFetcher<IngestAnswer>();
  const revalidator = useRevalidator();
  const navigate = useNavigate();
  // The running job is followed across reloads and pages (the dashboard shows the same button).
  const { run, job: current, follow } = useFollowedJob({
    key: RUNNING_JOB_KEY,
    onEnd: async (_run, finished, detail) => {
      if (finished?.status !== "succeeded") {
        if (finished) {
          rememberLastRun(finished, []);
          void revalidator.revalidate();
        }
        console.error("RSS ingestion failed:", detail);
        toast.error(INGESTION_FAILED.title, { description: INGESTION_FAILED.description });
        return;
      }
      const failed = await failedSourcesOf(finished.id);
      rememberLastRun(finished, failed);
      // The page's data (source health, story counts) is stale once a run ends.
      void revalidator.revalidate();
      const counts = jobResult("rss-ingestion", finished);
      const problems = ingestionFailureSummary(failed, counts.sources_processed);
      if (problems) {
        toast.warning("RSS Ingestion Complete", {
          description: `${ingestionSummary(counts)}. ${problems}`,
          duration: 20_000,
          action: { label: "Show failing sources", onClick: () => navigate(TROUBLED_SOURCES_HREF) },
        });
      } else {
        toast.success("RSS Ingestion Complete", { description: ingestionSummary(counts) });
      }
    },
  });
  useFollowAnswer(fetcher.data, follow);
  const running = fetcher.state !== "idle" || run !== null;

  const trigger = () => fetcher.submit({ intent: "ingest", useCanonical: String(useCanonical) }, { method: "post", action: "/admin/sources" });

  const percent = current?.total ? Math.round((Math.min(current.progress, current.total) / current.total) * 100) : 0;
  return (
    <div className={`flex flex-col gap-2 ${align === "end" ? "items-end text-right" : "items-start"}`}>
      <button
        type="button"
        onClick={trigger}
        disabled={running}
        aria-busy={running}
        className="inline-flex items-center gap-2 rounded-full border-2 border-ink bg-white px-4 py-2 font-bold hover:bg-acid disabled:cursor-not-allowed disabled:opacity-70 disabled:hover:bg-white"
      >
        {running ? <Spinner /> : null}
        {running ? "Ingesting RSS..." : "Trigger RSS Ingestion"}
      </button>
      <div aria-live="polite" className={running ? "w-64 max-w-full" : undefined}>
        {running ? (
          <>
            <p className="text-sm font-semibold">{current ? ingestionProgressLine(current) : "Starting..."}</p>
            <div
              role="progressbar"
              aria-label="RSS ingestion progress"
              aria-valuemin={0}
              aria-valuemax={current?.total ?? undefined}
              aria-valuenow={current?.total ? Math.min(current.progress, current.total) : undefined}
              className="mt-1 h-2 overflow-hidden rounded-full border-2 border-ink bg-paper"
            >
              <div className={`h-full bg-ufo transition-[width] ${current?.total ? "" : "animate-pulse"}`} style={{ width: `${current?.total ? Math.max(percent, 4) : 100}%` }} />
            </div>
          </>
        ) : null}
      </div>
    </div>
  );
}
