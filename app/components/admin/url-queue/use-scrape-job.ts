import { useNavigate, useRevalidator } from "react-router";
import { toast } from "sonner";
import { useFollowedJob, type ParseFollowed } from "~/app/components/admin/job-poll";
import type { JobView } from "~/jobs/types";
import { jobResult } from "~/domain/jobs/kinds";
import { URL_QUEUE_TEXT } from "./texts";

// The running scrape is kept for the tab, so a reload of the page follows it again.
const STORAGE_KEY = "oddwire:url-queue-scrape";

/** A scrape the page is following: its job, how many URLs were sent, and the job's last report. */
export type ScrapeRun = { jobId: string; requested: number; job: JobView | null };

/** The line and numbers the progress bar shows; the job reports its total once it has read the rows. */
export function scrapeProgress(run: ScrapeRun): { done: number; total: number; line: string } {
  const total = run.job?.total ?? run.requested;
  const done = Math.min(run.job?.progress ?? 0, total);
  return { done, total, line: URL_QUEUE_TEXT.scrapeProgress(done, total) };
}

const parseRun: ParseFollowed<{ jobId: string; requested: number }> = (value) =>
  typeof value.requested === "number" ? { jobId: value.jobId, requested: value.requested } : null;

/**
 * Follows a queued "scrape-queue" job until it ends: then the spec's toast and, on success, Stories
 * filtered to Pending (the Stories page reads the fromScrape state); on failure `onFailed` and a
 * reload of the list, as some rows may have been scraped before it stopped.
 */
export function useScrapeJob({ onFailed }: { onFailed: () => void }) {
  const navigate = useNavigate();
  const revalidator = useRevalidator();

  const { run, job, follow } = useFollowedJob({
    key: STORAGE_KEY,
    parse: parseRun,
    onEnd: (_run, finished, detail) => {
      if (finished?.status === "succeeded") {
        const counts = jobResult("scrape-queue", finished);
        const message = URL_QUEUE_TEXT.scrapeComplete(counts);
        (counts.failed > 0 ? toast.warning : toast.success)(message.title, { description: message.description });
        void navigate("/admin/stories", { state: { fromScrape: true } });
        return;
      }
      const reason = finished
        ? (finished.error ?? (finished.status === "cancelled" ? "The scrape was stopped before it finished." : "The scrape stopped with an error."))
        : `The scrape's progress can no longer be read (${String(detail)}). It may still finish: press Refresh later.`;
      toast.error(URL_QUEUE_TEXT.scrapeFailed, { description: reason });
      onFailed();
      void revalidator.revalidate();
    },
  });

  return { run: run ? { ...run, job } : null, follow };
}
