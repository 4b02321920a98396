import { describe, expect, test } from "vitest";
import { DEFAULT_URL_QUEUE_STATUS, URL_QUEUE_STATUSES } from "~/domain/crawl/url-queue";
import { jobResult } from "~/domain/jobs/kinds";
import { urlQueueList } from "./filters";
import { URL_QUEUE_TEXT } from "./texts";
import { formatLastmod } from "./url-queue-list";
import { scrapeProgress } from "./use-scrape-job";

const statuses = { options: URL_QUEUE_STATUSES, fallback: DEFAULT_URL_QUEUE_STATUS };
const list = urlQueueList(statuses);

describe("the URL Que's filters in the address", () => {
  test.each([
    ["", { sourceId: null, status: "queued", q: "" }],
    ["?source=7&status=failed&q=%20frog%20", { sourceId: 7, status: "failed", q: "frog" }],
    ["?status=all", { sourceId: null, status: "all", q: "" }],
    ["?status=rejected&source=-3", { sourceId: null, status: "queued", q: "" }],
    ["?source=1.5", { sourceId: null, status: "queued", q: "" }],
  ])("%j reads as %j", (search, filters) => {
    expect(list.read(new URLSearchParams(search))).toEqual(filters);
  });

  test.each([
    [{ sourceId: null, status: "queued", q: "" }, "?"],
    [{ sourceId: 7, status: "scraped", q: "a b" }, "?source=7&status=scraped&q=a+b"],
    [{ sourceId: null, status: "all", q: "" }, "?status=all"],
  ] as const)("%j is written as %j, defaults left out, and read back the same", (filters, search) => {
    expect(list.href(filters)).toBe(search);
    expect(list.read(new URLSearchParams(search))).toEqual(filters);
  });

  test("each combination of filters has its own key, so a change resets the selection", () => {
    const keys = [
      { sourceId: null, status: "queued", q: "" },
      { sourceId: 1, status: "queued", q: "" },
      { sourceId: null, status: "failed", q: "" },
      { sourceId: null, status: "queued", q: "frog" },
    ] as const;
    expect(new Set(keys.map((filters) => list.href(filters))).size).toBe(keys.length);
  });
});

describe("the URL Que's words", () => {
  test("a scrape without rate limits says all were processed", () => {
    expect(URL_QUEUE_TEXT.scrapeComplete(jobResult("scrape-queue", { result: { succeeded: 3, failed: 1, rate_limited: 0, total: 4, results: [] } }))).toEqual({
      title: "Scrape complete: Succeeded 3, Failed 1. New items appear under Stories -> Pending.",
      description: "All selected URLs were processed.",
    });
  });

  test("a scrape that hit rate limits says those URLs were left queued for retry", () => {
    expect(URL_QUEUE_TEXT.scrapeComplete(jobResult("scrape-queue", { result: { succeeded: 1, failed: 2, rate_limited: 2, total: 3 } }))).toEqual({
      title: "Scrape complete: Succeeded 1, Failed 2. New items appear under Stories -> Pending.",
      description: "Some requests hit rate limits (2); those URLs were left queued for retry.",
    });
  });

  test("a result without counts reads as zeros rather than breaking the toast", () => {
    expect(jobResult("scrape-queue", null)).toEqual({ succeeded: 0, failed: 0, rate_limited: 0, total: 0 });
    expect(jobResult("scrape-queue", { result: { succeeded: "3", failed: -1 } })).toEqual({ succeeded: 0, failed: 0, rate_limited: 0, total: 0 });
  });

  test("the delete confirmation, reject and delete toasts are the spec's", () => {
    expect(URL_QUEUE_TEXT.confirmDelete(2)).toBe("Are you sure you want to permanently delete 2 URLs from the queue? This action cannot be undone.");
    expect(URL_QUEUE_TEXT.rejected(2)).toEqual({ title: "Rejected", description: "Rejected 2 URLs. They won't appear in future URL processing." });
    expect(URL_QUEUE_TEXT.deleted(2)).toEqual({ title: "Deleted", description: "Permanently removed 2 URLs from the queue." });
  });

  test("the progress line counts the job's pages, or the URLs sent until the job has counted them", () => {
    expect(scrapeProgress({ jobId: "j", requested: 5, job: null }).line).toBe("Scraping 0 of 5...");
    const job = { progress: 2, total: 4 } as Parameters<typeof scrapeProgress>[0]["job"];
    expect(scrapeProgress({ jobId: "j", requested: 5, job })).toEqual({ done: 2, total: 4, line: "Scraping 2 of 4..." });
  });

  test.each([
    ["2025-03-10T09:30:00.000Z", "Mar 10, 2025 09:30"],
    ["2024-12-01T23:05:59.000Z", "Dec 1, 2024 23:05"],
    [null, ""],
  ])("lastmod %j shows as %j", (iso, shown) => {
    expect(formatLastmod(iso)).toBe(shown);
  });
});
