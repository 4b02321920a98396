import { useMemo, useSyncExternalStore } from "react";
import { useNavigate, useRevalidator } from "react-router";
import { toast } from "sonner";
import { readStorage, writeStorage } from "~/app/components/admin/browser-storage";
import { useJobPoll } from "~/app/components/admin/job-poll";
import type { JobView } from "~/jobs/types";
import { scrapeCountsOf, URL_QUE_TEXT } from "./texts";

// The running scrape lives in sessionStorage, so a reload of the page follows it again.
const STORAGE_KEY = "oddwire:url-que-scrape";

/** A scrape the page is following: its job, how many URLs were sent, and the job's last report. */
export type ScrapeRun = { jobId: string; requested: number; job: JobView | null };

/** The line and numbers the progress bar shows; the job reports its total once it has read the rows. */
export function scrapeProgress(run: ScrapeRun): { done: number; total: number; line: string } {
  const total = run.job?.total ?? run.requested;
  const done = Math.min(run.job?.progress ?? 0, total);
  return { done, total, line: URL_QUE_TEXT.scrapeProgress(done, total) };
}

const CHANGED = "oddwire:url-que-scrape-changed";

function subscribe(onChange: () => void) {
  window.addEventListener(CHANGED, onChange);
  return () => window.removeEventListener(CHANGED, onChange);
}

function setStoredRun(run: { jobId: string; requested: number } | null) {
  writeStorage("session", STORAGE_KEY, run ? JSON.stringify(run) : null);
  window.dispatchEvent(new Event(CHANGED));
}

function parseRun(text: string | null): { jobId: string; requested: number } | null {
  try {
    const stored = JSON.parse(text ?? "null") as { jobId?: unknown; requested?: unknown } | null;
    return stored && typeof stored.jobId === "string" && typeof stored.requested === "number" ? { jobId: stored.jobId, requested: stored.requested } : null;
  } catch {
    return null;
  }
}

/**
 * Follows a queued "scrape-queue" job until it ends: then the spec's toast and, on success, Stories
 * filtered to Pending (the Stories page reads the fromScrape state); on failure `onFailed` and a
 * reload of the list, as some rows may have been scraped before it stopped.
 */
export function useScrapeJob({ onFailed }: { onFailed: () => void }) {
  // The server has no sessionStorage: it renders no run, and the browser picks a stored one up.
  const stored = useSyncExternalStore(subscribe, () => readStorage("session", STORAGE_KEY), () => null);
  const started = useMemo(() => parseRun(stored), [stored]);
  const navigate = useNavigate();
  const revalidator = useRevalidator();

  const job = useJobPoll(started?.jobId ?? null, (finished, detail) => {
    setStoredRun(null);
    if (finished?.status === "succeeded") {
      const counts = scrapeCountsOf(finished.result);
      const message = URL_QUE_TEXT.scrapeComplete(counts);
      (counts.failed > 0 ? toast.warning : toast.success)(message.title, { description: message.description });
      void navigate("/admin/stories", { state: { fromScrape: true } });
      return;
    }
    const reason = finished
      ? (finished.error ?? (finished.status === "cancelled" ? "The scrape was stopped before it finished." : "The scrape stopped with an error."))
      : `The scrape's progress can no longer be read (${String(detail)}). It may still finish: press Refresh later.`;
    toast.error(URL_QUE_TEXT.scrapeFailed, { description: reason });
    onFailed();
    void revalidator.revalidate();
  });

  return {
    run: started ? { ...started, job } : null,
    follow: (run: { jobId: string; requested: number }) => setStoredRun(run),
  };
}
