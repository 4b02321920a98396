import { describe, expect, test } from "vitest";
import { JOB_KIND_NAMES, JOB_KINDS, jobResult, parseJobInput, type JobKind } from "./kinds";

describe("the job kinds", () => {
  test("are the kinds the runner queues, each with an input and a result", () => {
    expect(JOB_KIND_NAMES).toEqual(["rss-ingestion", "crawl-discovery", "scrape-queue", "enhance-images", "facebook-post", "triage"]);
  });

  // A good input of each kind, one it refuses, and what an empty result reads as.
  const table: { kind: JobKind; good: unknown; parsed: unknown; bad: unknown; empty: unknown }[] = [
    { kind: "rss-ingestion", good: {}, parsed: { use_canonical: false }, bad: { use_canonical: "yes" }, empty: { sources_processed: 0, total_items_found: 0, total_items_processed: 0 } },
    {
      kind: "crawl-discovery",
      good: { source_id: 3 },
      parsed: { source_id: 3 },
      bad: { source_id: -1 },
      empty: { sources_processed: 0, found: 0, queued: 0, skipped_robots: 0, skipped_known: 0, sources: [] },
    },
    { kind: "scrape-queue", good: { ids: [1, 2] }, parsed: { ids: [1, 2] }, bad: { ids: ["1"] }, empty: { succeeded: 0, failed: 0, rate_limited: 0, total: 0 } },
    {
      kind: "enhance-images",
      good: { singleStoryId: 4, customImageUrl: null },
      parsed: { singleStoryId: 4, customImageUrl: null },
      bad: { storyIds: 4 },
      empty: { processed: 0, enhanced: 0, failed: 0, skipped: 0, details: [] },
    },
    { kind: "facebook-post", good: { post_id: 9, resumed_from: "a1" }, parsed: { post_id: 9, resumed_from: "a1" }, bad: {}, empty: { outcome: "unknown", post_row_id: 0, story_id: null } },
    { kind: "triage", good: {}, parsed: { retrain: false }, bad: { retrain: "yes" }, empty: { retrained: false, scored: 0, groups: 0, grouped: 0 } },
  ];

  test.each(table)("$kind: takes its input, refuses a wrong one, and reads a missing result as empty", ({ kind, good, parsed, bad, empty }) => {
    expect(parseJobInput(kind, good)).toEqual(parsed);
    expect(() => parseJobInput(kind, bad)).toThrow();
    expect(jobResult(kind, null)).toEqual(empty);
    expect(jobResult(kind, { result: null })).toEqual(empty);
    expect(Object.keys(JOB_KINDS[kind])).toEqual(["input", "result"]);
  });

  test("a result's odd counts read as 0, and list entries that are not of their kind are dropped", () => {
    expect(jobResult("scrape-queue", { result: { succeeded: 3, failed: -1, rate_limited: "2", total: 4, results: [] } })).toEqual({
      succeeded: 3,
      failed: 0,
      rate_limited: 0,
      total: 4,
    });
    const discovery = jobResult("crawl-discovery", {
      result: { sources: [{ source_id: 2, name: "Odd", found: 5, queued: 2, errors: ["robots.txt slow", 7], failed: false }, { name: "no id" }, null] },
    });
    expect(discovery.sources).toEqual([
      { source_id: 2, name: "Odd", found: 5, queued: 2, skipped_robots: 0, skipped_known: 0, skipped_filtered: 0, errors: ["robots.txt slow"], failed: false },
    ]);
    // A story's detail without a title is named by its id.
    expect(jobResult("enhance-images", { result: { details: [{ storyId: 4, outcome: "skipped" }] } }).details).toEqual([
      { storyId: 4, title: "Story 4", success: false, outcome: "skipped" },
    ]);
  });
});
