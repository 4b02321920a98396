import { jobResult } from "~/domain/jobs/kinds";
import { describe, expect, test } from "vitest";
import type { JobView } from "~/jobs/types";
import {
  actionFailure,
  actionFailureTitle,
  actionToastDuration,
  analysisSummary,
  batchConfirmation,
  endToast,
  parseFollowedRun,
  progressLine,
  resultSummary,
  retryConfirmation,
} from "./image-messages";

const job = (overrides: Partial<JobView>): JobView => ({
  id: "job-1",
  kind: "enhance-images",
  status: "running",
  progress: 0,
  total: null,
  message: null,
  counts: null,
  cancelRequested: false,
  result: null,
  error: null,
  createdAt: "2025-05-20T12:00:00.000Z",
  startedAt: null,
  finishedAt: null,
  ...overrides,
});

const result = (details: Record<string, unknown>[], counts = { processed: details.length, enhanced: 0, failed: 0, skipped: 0 }) => ({ ...counts, details });

describe("the analysis toast", () => {
  test.each([
    [{ total: 20, withImages: 14 }, "14 of 20 recent stories have images"],
    [{ total: 1, withImages: 1 }, "1 of 1 recent story has images"],
    [{ total: 3, withImages: 0 }, "0 of 3 recent stories have images"],
    [{ total: 0, withImages: 0 }, "There are no stories to analyze yet."],
  ])("%o reads '%s'", (counts, line) => {
    expect(analysisSummary(counts)).toBe(line);
  });
});

describe("the confirmation before a batch", () => {
  const speed = { runs: 2, stories: 381, seconds: 10.3 };
  test.each([
    ["Enhance All with 37 needing work", 47, 37, "Enhance images of 37 stories?", "All 37 stories that need work will be checked for a larger image (a batch of 47)."],
    ["a quick 10 of many", 10, 400, "Enhance images of 10 stories?", "The 10 newest of the 400 stories that need work will be checked for a larger image."],
    ["a quick 50 of one", 50, 1, "Enhance images of 1 story?", "The 1 story that needs work will be checked for a larger image (a batch of 50)."],
    ["a quick 50 of 50", 50, 50, "Enhance images of 50 stories?", "All 50 stories that need work will be checked for a larger image (a batch of 50)."],
  ])("%s: the count and one estimate", (_name, batch, needing, title, count) => {
    const text = batchConfirmation(batch, needing, speed);
    expect(text.title).toBe(title);
    expect(text.lines.join(" ")).toBe(count);
    expect(text.estimate).toBe("Estimated time: a few seconds (the last 2 runs took 10 seconds for 381 stories).");
    expect(JSON.stringify(text)).not.toMatch(/minutes|10-15/);
  });

  test("before any run is timed, no estimate, said once", () => {
    const text = batchConfirmation(10, 400, null);
    expect(text.estimate).toBe("No estimate yet: no run has been timed. This run is, and its speed gives the estimates after it.");
    expect(JSON.stringify(text)).not.toMatch(/minute|10-15/);
  });

  test("the estimate is for the stories the batch will take, not the batch's size", () => {
    expect(batchConfirmation(50, 5, { runs: 1, stories: 1, seconds: 12 }).estimate).toMatch(/^Estimated time: about 1 minute /);
  });

  test("retrying every story that failed for good asks first, with the estimate for them", () => {
    expect(retryConfirmation(331, { runs: 1, stories: 10, seconds: 60 })).toEqual({
      title: "Retry 331 stories?",
      lines: ["The 331 stories whose last attempt failed for a lasting reason will be looked at again."],
      estimate: "Estimated time: about 33 minutes (the last run took 60 seconds for 10 stories).",
    });
  });
});

describe("the line over the progress bar", () => {
  test.each([
    ["before the first answer", null, "Starting..."],
    ["a queued run waits", job({ status: "queued" }), "Waiting to start..."],
    ["before the run has its stories", job({ total: null }), "Choosing the stories..."],
    ["a running run counts its stories", job({ progress: 3, total: 10 }), "Enhancing images: 3 of 10 stories"],
    ["never past the total", job({ progress: 12, total: 10 }), "Enhancing images: 10 of 10 stories"],
    ["one story", job({ progress: 0, total: 1 }), "Enhancing images: 0 of 1 story"],
    ["a run asked to stop", job({ progress: 3, total: 10, cancelRequested: true }), "Stopping after the stories in hand..."],
  ])("%s", (_name, view, line) => {
    expect(progressLine(view)).toBe(line);
  });
});

describe("the result of a finished run", () => {
  test("reads odd counts as 0 and drops details it cannot read", () => {
    const read = jobResult("enhance-images", { result: {
      processed: 2,
      enhanced: "1",
      failed: -1,
      details: [{ storyId: 4, title: "Owl", success: true, outcome: "enhanced", imageUrl: "https://img.example/owl.jpg" }, { storyId: "5" }, null],
    } });
    expect(read).toEqual({
      processed: 2,
      enhanced: 0,
      failed: 0,
      skipped: 0,
      details: [{ storyId: 4, title: "Owl", success: true, outcome: "enhanced", imageUrl: "https://img.example/owl.jpg" }],
    });
    expect(jobResult("enhance-images", null)).toEqual({ processed: 0, enhanced: 0, failed: 0, skipped: 0, details: [] });
  });

  test("sums up in one line", () => {
    expect(resultSummary({ processed: 10, enhanced: 6, skipped: 3, failed: 1 })).toBe("Processed 10: 6 enhanced, 3 skipped, 1 failed");
  });
});

describe("the toast a run ends with", () => {
  const counts = { processed: 10, enhanced: 6, failed: 1, skipped: 3 };
  test.each([
    ["Enhance All", "all", "Bulk Enhancement Complete"],
    ["a quick batch", "quick", "Enhancement Complete"],
    ["a run another page started", "other", "Enhancement Complete"],
  ] as const)("%s succeeds with its numbers, for 8 s", (_name, kind, title) => {
    expect(endToast(kind, job({ status: "succeeded", result: result([], counts) }))).toEqual({
      tone: "success",
      title,
      description: "Processed 10: 6 enhanced, 3 skipped, 1 failed",
      duration: 8000,
    });
  });

  test.each([
    [
      "an enhanced story shows its new image",
      { outcome: "enhanced", success: true, imageUrl: "https://img.example/big.jpg" },
      { enhanced: 1 },
      { tone: "success", title: "Test Complete", description: "Processed 1: 1 enhanced, 0 skipped, 0 failed. New image: https://img.example/big.jpg" },
    ],
    [
      "a skipped story says why",
      { outcome: "skipped", success: true, error: "Already high-resolution (1600x900)" },
      { skipped: 1 },
      { tone: "success", title: "Test Complete", description: "Processed 1: 0 enhanced, 1 skipped, 0 failed. Skipped: Already high-resolution (1600x900)" },
    ],
    [
      "a failed story is 'Test Failed' with the reason",
      { outcome: "failed", success: false, error: "No image found on the original page" },
      { failed: 1 },
      { tone: "error", title: "Test Failed", description: "No image found on the original page" },
    ],
  ])("the single-story test: %s, for 5 s", (_name, detail, numbers, expected) => {
    const view = job({ status: "succeeded", result: result([{ storyId: 7, title: "Owl", ...detail }], { processed: 1, enhanced: 0, failed: 0, skipped: 0, ...numbers }) });
    expect(endToast("single", view)).toEqual({ ...expected, duration: 5000 });
  });

  test.each([
    ["Enhance All", "all", "Bulk Enhancement Failed"],
    ["a quick batch", "quick", "Enhancement Failed"],
    ["the single-story test", "single", "Test Failed"],
  ] as const)("a failed run of %s has the spec's title and the error, for 5 s", (_name, kind, title) => {
    expect(endToast(kind, job({ status: "failed", error: "The original page answered HTTP 500" }))).toEqual({
      tone: "error",
      title,
      description: "The original page answered HTTP 500",
      duration: 5000,
    });
    expect(endToast(kind, job({ status: "failed", error: null })).description).toBe("Failed to enhance images");
    expect(endToast(kind, null)).toMatchObject({ title, description: "Failed to enhance images" });
  });

  test("a cancelled run says so, with what it did", () => {
    expect(endToast("all", job({ status: "cancelled", progress: 4, total: 47, counts: { enhanced: 2, failed: 1, skipped: 1 } }))).toEqual({
      tone: "info",
      title: "Enhancement Cancelled",
      description: "The run was cancelled after 4 of 47 stories: 2 enhanced, 1 skipped, 1 failed.",
      duration: 5000,
    });
  });
});

describe("a refused action", () => {
  test.each([
    ["analyze-images", undefined, undefined, "Error"],
    ["enhance-bulk", "all", undefined, "Bulk Enhancement Failed"],
    ["enhance-bulk", "quick", undefined, "Enhancement Failed"],
    ["enhance-test", undefined, { storyId: "Please enter a story ID to test" }, "Story ID Required"],
    ["enhance-test", undefined, { storyId: "A story ID is a whole number" }, "Test Failed"],
    ["enhance-test", undefined, undefined, "Test Failed"],
    ["cancel-images", undefined, undefined, "Error"],
  ])("%s (%s, %o) is titled '%s'", (intent, mode, fields, title) => {
    expect(actionFailureTitle(intent, mode, fields)).toBe(title);
  });

  test("the analysis always says 'Failed to analyze images'; enhancements fall back to 'Failed to enhance images'", () => {
    expect(actionFailure("analyze-images")).toEqual({ fallback: "Failed to analyze images", description: "Failed to analyze images" });
    expect(actionFailure("enhance-bulk")).toEqual({ fallback: "Failed to enhance images" });
    expect(actionFailure("enhance-test")).toEqual({ fallback: "Failed to enhance images" });
  });

  test("the missing-ID toast stays 3 s, the others 5 s", () => {
    expect(actionToastDuration("Story ID Required")).toBe(3000);
    expect(actionToastDuration("Image Analysis Complete")).toBe(5000);
    expect(actionToastDuration("Test Failed")).toBe(5000);
  });
});

describe("the run a tab remembers", () => {
  test.each([
    [{ jobId: "a1", kind: "all" }, { jobId: "a1", kind: "all" }],
    [{ jobId: "a1", kind: "single" }, { jobId: "a1", kind: "single" }],
    [{ jobId: "a1", kind: "paint" }, null],
  ])("%j", (value, run) => {
    expect(parseFollowedRun(value)).toEqual(run);
  });
});
