// The URL Que's words, in one place for the screen, its action and its journey.

import type { JobResult } from "~/domain/jobs/kinds";

/** What a finished scrape-queue job reports. */
export type ScrapeCounts = JobResult<"scrape-queue">;

export const URL_QUEUE_TEXT = {
  noSelection: { title: "No selection", description: "Select at least one URL." },
  rejected: (n: number) => ({ title: "Rejected", description: `Rejected ${n} URLs. They won't appear in future URL processing.` }),
  rejectFailed: "Reject failed",
  deleted: (n: number) => ({ title: "Deleted", description: `Permanently removed ${n} URLs from the queue.` }),
  deleteFailed: "Delete failed",
  confirmDelete: (n: number) => `Are you sure you want to permanently delete ${n} URLs from the queue? This action cannot be undone.`,
  scrapeFailed: "Scrape encountered errors",
  scrapeProgress: (done: number, total: number) => `Scraping ${done} of ${total}...`,
  // The whole sentence is the title, as the Manual Scrape's 'Scrape complete: ...'; the note on rate limits is the description.
  scrapeComplete: (counts: ScrapeCounts) => ({
    title: `Scrape complete: Succeeded ${counts.succeeded}, Failed ${counts.failed}. New items appear under Stories -> Pending.`,
    description:
      counts.rate_limited > 0
        ? `Some requests hit rate limits (${counts.rate_limited}); those URLs were left queued for retry.`
        : "All selected URLs were processed.",
  }),
} as const;

