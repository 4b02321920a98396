import { describe, expect, test } from "vitest";
import { bulkBatchSize, durationText, estimatedSeconds, estimateText, throughputText } from "./panel-rules";

test("the bulk batch is every story needing work plus ten", () => {
  expect(bulkBatchSize(0)).toBe(10);
  expect(bulkBatchSize(3)).toBe(13);
  expect(bulkBatchSize(240)).toBe(250);
});

describe("the estimate before a run, from the measured speed of recent runs", () => {
  // The runs the issue saw: 331 stories in 9 s, then 50 in 1.3 s.
  const measured = { runs: 2, stories: 381, seconds: 10.3 };

  test.each([
    [331, measured, "a few seconds"],
    [50, { runs: 1, stories: 10, seconds: 12 }, "about 1 minute"],
    [50, { runs: 1, stories: 10, seconds: 10 }, "about 50 seconds"],
    [400, { runs: 3, stories: 60, seconds: 90 }, "about 10 minutes"],
    [5000, { runs: 5, stories: 500, seconds: 1200 }, "about 3.5 hours"],
  ])("%i stories at %o: %s", (stories, throughput, words) => {
    expect(durationText(estimatedSeconds(stories, throughput)!)).toBe(words);
  });

  test("is one sentence with the speed it comes from, and never the spec's 7 s a story or its 10-15 minutes", () => {
    expect(estimateText(331, measured)).toBe("Estimated time: a few seconds (the last 2 runs took 10 seconds for 381 stories).");
    expect(estimateText(50, { runs: 1, stories: 1, seconds: 3 })).toBe("Estimated time: about 3 minutes (the last run took 3 seconds for 1 story).");
    expect(estimateText(331, measured)).not.toMatch(/39 minutes|10-15 minutes/);
  });

  test("before any run is timed there is no number, and it says so", () => {
    expect(estimatedSeconds(50, null)).toBeNull();
    expect(estimatedSeconds(50, { runs: 1, stories: 10, seconds: 0 })).toBeNull();
    expect(estimateText(50, null)).toBe("No estimate yet: no run has been timed. This run is, and its speed gives the estimates after it.");
  });

  test("the measured speed reads as it was", () => {
    expect(throughputText({ runs: 1, stories: 331, seconds: 9.2 })).toBe("the last run took 9 seconds for 331 stories");
    expect(throughputText({ runs: 4, stories: 2000, seconds: 600 })).toBe("the last 4 runs took 10 minutes for 2000 stories");
  });
});
