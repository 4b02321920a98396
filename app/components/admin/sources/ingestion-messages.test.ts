import { describe, expect, test } from "vitest";
import { ingestionCounts, ingestionProgressLine, ingestionSummary, lastRunOf, parseLastRun } from "./ingestion-messages";

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
    const counts = ingestionCounts({ sources_processed: 2, total_items_found: 15, total_items_processed: 4 });
    expect(ingestionSummary(counts)).toBe("Processed 2 sources, found 15 items, processed 4 new stories");
  });

  test.each([
    ["no result", null],
    ["counts that are not numbers", { sources_processed: "2", total_items_found: null, total_items_processed: Number.NaN }],
  ])("reads missing counts as 0: %s", (_name, result) => {
    expect(ingestionCounts(result)).toEqual({ sources_processed: 0, total_items_found: 0, total_items_processed: 0 });
  });
});

describe("the last run a browser remembers", () => {
  const now = new Date("2025-03-04T14:05:00.000Z");

  test("a succeeded job keeps its counts, a failed one its error", () => {
    const ok = lastRunOf({ status: "succeeded", result: { sources_processed: 1, total_items_found: 3, total_items_processed: 2 }, error: null, finishedAt: "2025-03-04T14:00:00.000Z" }, now);
    expect(ok).toEqual({ status: "succeeded", finishedAt: "2025-03-04T14:00:00.000Z", counts: { sources_processed: 1, total_items_found: 3, total_items_processed: 2 }, error: null });
    const failed = lastRunOf({ status: "failed", result: null, error: "database down", finishedAt: null }, now);
    expect(failed).toEqual({ status: "failed", finishedAt: now.toISOString(), counts: null, error: "database down" });
    expect(lastRunOf({ status: "cancelled", result: null, error: null, finishedAt: null }, now).error).toBe("The job was cancelled.");
  });

  test("reads back what it stored", () => {
    const run = lastRunOf({ status: "succeeded", result: { sources_processed: 1, total_items_found: 3, total_items_processed: 2 }, error: null, finishedAt: null }, now);
    expect(parseLastRun(JSON.stringify(run))).toEqual(run);
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
