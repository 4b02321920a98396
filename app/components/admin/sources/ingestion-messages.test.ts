import { describe, expect, test } from "vitest";
import { jobResult } from "~/domain/jobs/kinds";
import { ingestionFailureSummary, ingestionProgressLine, ingestionSummary, lastRunOf, parseLastRun } from "./ingestion-messages";

describe("the progress line of a running ingestion", () => {
  test.each([
    ["a queued job waits", { status: "queued", progress: 0, total: null, message: null }, "Waiting to start..."],
    ["a running job counts its sources", { status: "running", progress: 3, total: 12, message: "Odd Feed" }, "Processing 3 of 12 sources..."],
    ["the count never passes the total", { status: "running", progress: 14, total: 12, message: null }, "Processing 12 of 12 sources..."],
    ["before the total is known, the job's message", { status: "running", progress: 0, total: null, message: "Finding due sources" }, "Finding due sources"],
    ["with neither, a plain start", { status: "running", progress: 0, total: 0, message: null }, "Starting..."],
  ] as const)("%s", (_name, job, line) => {
    expect(ingestionProgressLine(job)).toBe(line);
  });
});

describe("the completion message", () => {
  test("names the three counts of the result", () => {
    const counts = jobResult("rss-ingestion", { result: { sources_processed: 2, total_items_found: 15, total_items_processed: 4 } });
    expect(ingestionSummary(counts)).toBe("Processed 2 sources, found 15 items, processed 4 new stories");
  });

  test.each([
    ["no result", null],
    ["counts that are not numbers", { sources_processed: "2", total_items_found: null, total_items_processed: Number.NaN }],
  ])("reads missing counts as 0: %s", (_name, result) => {
    expect(jobResult("rss-ingestion", { result })).toEqual({ sources_processed: 0, total_items_found: 0, total_items_processed: 0 });
  });
});

describe("the failure summary beside the completion text", () => {
  const source = (id: number, name: string, error: string) => ({ id, name, error });
  test.each([
    ["no failure, no summary", [], 3, null],
    ["one of several", [source(1, "Odd Feed", "HTTP 404")], 3, "1 of 3 sources failed: Odd Feed (HTTP 404)."],
    ["the only one", [source(1, "Odd Feed", "HTTP 404")], 1, "The one source failed: Odd Feed (HTTP 404)."],
    [
      "every source",
      [source(1, "Odd Feed", "HTTP 404"), source(2, "Weird Wire", "DNS_FAILURE")],
      2,
      "All 2 sources failed: Odd Feed (HTTP 404); Weird Wire (DNS_FAILURE).",
    ],
    [
      "more than three are counted, not named",
      [source(1, "A", "x"), source(2, "B", "y"), source(3, "C", "z"), source(4, "D", "w"), source(5, "E", "v")],
      9,
      "5 of 9 sources failed: A (x); B (y); C (z); and 2 more.",
    ],
  ] as const)("%s", (_name, failed, processed, summary) => {
    expect(ingestionFailureSummary([...failed], processed)).toBe(summary);
  });
});

describe("the last run a browser remembers", () => {
  const now = new Date("2025-03-04T14:05:00.000Z");

  test("a succeeded job keeps its counts, a failed one its error", () => {
    const ok = lastRunOf({ status: "succeeded", result: { sources_processed: 1, total_items_found: 3, total_items_processed: 2 }, error: null, finishedAt: "2025-03-04T14:00:00.000Z" }, now);
    expect(ok).toEqual({ status: "succeeded", finishedAt: "2025-03-04T14:00:00.000Z", counts: { sources_processed: 1, total_items_found: 3, total_items_processed: 2 }, error: null, failed: [] });
    const failed = lastRunOf({ status: "failed", result: null, error: "database down", finishedAt: null }, now);
    expect(failed).toEqual({ status: "failed", finishedAt: now.toISOString(), counts: null, error: "database down", failed: [] });
    expect(lastRunOf({ status: "cancelled", result: null, error: null, finishedAt: null }, now).error).toBe("The job was cancelled.");
  });

  test("reads back what it stored, the sources that failed too", () => {
    const failed = [{ id: 7, name: "Odd Feed", error: "HTTP 404" }];
    const run = lastRunOf({ status: "succeeded", result: { sources_processed: 1, total_items_found: 3, total_items_processed: 2 }, error: null, finishedAt: null }, now, failed);
    expect(parseLastRun(JSON.stringify(run))).toEqual(run);
    // A run stored before failures were kept reads as one without any.
    const { failed: _dropped, ...older } = run;
    expect(parseLastRun(JSON.stringify(older))?.failed).toEqual([]);
  });

  test.each([
    ["nothing", null],
    ["not JSON", "{"],
    ["JSON null", "null"],
    ["an unknown status", JSON.stringify({ status: "running", finishedAt: "2025-03-04T14:00:00.000Z" })],
    ["no finish time", JSON.stringify({ status: "succeeded" })],
  ])("ignores a stored value that is not a run: %s", (_name, raw) => {
    expect(parseLastRun(raw)).toBeNull();
  });
});
