// The URL Que's words (spec section 8), in one place for the screen, its action and its journey.

/** What a finished scrape-queue job reports (domain/crawl/scrape-queue.ts). */
export type ScrapeCounts = { succeeded: number; failed: number; rate_limited: number; total: number };

export const URL_QUE_TEXT = {
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

const count = (value: unknown) => (typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0);

/** Reads a finished job's result; a missing or odd field counts as zero rather than breaking the toast. */
export function scrapeCountsOf(result: Record<string, unknown> | null): ScrapeCounts {
  return { succeeded: count(result?.succeeded), failed: count(result?.failed), rate_limited: count(result?.rate_limited), total: count(result?.total) };
}
