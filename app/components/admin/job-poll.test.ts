import { describe, expect, test } from "vitest";
import { readFollowed } from "./job-poll";

// Runs of two shapes, as two pages keep them.
const bare = (value: Record<string, unknown>) => ({ jobId: String(value.jobId) });
const counted = (value: Record<string, unknown>) => (typeof value.requested === "number" ? { jobId: String(value.jobId), requested: value.requested } : null);

describe("a followed job as the tab keeps it", () => {
  test.each([
    ['{"jobId":"a1"}', bare, { jobId: "a1" }],
    ['{"jobId":"a1","requested":3}', counted, { jobId: "a1", requested: 3 }],
    ['{"jobId":"a1"}', counted, null],
    ['{"jobId":""}', bare, null],
    ['{"jobId":7}', bare, null],
    ['"a1"', bare, null],
    ["not json", bare, null],
    ["null", bare, null],
    [null, bare, null],
  ])("%s", (text, parse, run) => {
    expect(readFollowed(text, parse)).toEqual(run);
  });
});
