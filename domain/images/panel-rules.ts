// The image panel's rules. Pure, so the dashboard page imports them as they are.

/** How many of the newest stories the image analysis looks at. */
export const ANALYSIS_SIZE = 20;
/** The quick buttons' batch sizes. */
export const QUICK_BATCHES = [10, 50] as const;
/** Bulk runs whose speed the estimate follows: the newest few, so it keeps up with today's sites. */
export const THROUGHPUT_RUNS = 5;
/** Stories that failed for a lasting reason listed at most (the count says how many there are). */
export const FAILED_LIST_LIMIT = 50;
/** Toast durations in ms: a bulk success, most enhancement messages, the missing-ID message. */
export const TOAST_MS = { bulkSuccess: 8_000, standard: 5_000, missingId: 3_000 } as const;

/** The bulk batch: every story needing work, plus ten. */
export function bulkBatchSize(needingWork: number): number {
  return needingWork + 10;
}

/** The measured speed of recent bulk runs: how many there were, the stories they looked at and the seconds they took. */
export type Throughput = { runs: number; stories: number; seconds: number };

/*
 * One estimate, from measured speed (issue 30 replaces the spec's "count x 7 seconds" and its
 * "10-15 minutes" warning, which said 39 minutes for a run of 9 s). Before any run is measured there
 * is no estimate: a run's time depends on the sites it reads (their answers, their Crawl-delay), which
 * nothing here knows before trying, and a number off by 30 times is worse than none. The first run
 * is timed, and its speed gives every estimate after it.
 */

/** Seconds a batch of `stories` should take at the measured speed; null when no run has been measured. */
export function estimatedSeconds(stories: number, throughput: Throughput | null): number | null {
  if (!throughput || throughput.stories <= 0 || throughput.seconds <= 0) return null;
  return (stories * throughput.seconds) / throughput.stories;
}

const units = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;

/** A time in words, rounded as an estimate is: 'a few seconds', 'about 40 seconds', 'about 6 minutes', 'about 2.5 hours'. */
export function durationText(seconds: number): string {
  if (seconds < 10) return "a few seconds";
  if (seconds < 55) return `about ${Math.round(seconds / 5) * 5} seconds`;
  const minutes = Math.max(1, Math.round(seconds / 60));
  if (minutes < 90) return `about ${units(minutes, "minute")}`;
  return `about ${Math.round(seconds / 1800) / 2} hours`;
}

/** A measured time, as it was: '9 seconds', '4 minutes', '1.5 hours'. */
function measuredText(seconds: number): string {
  if (seconds < 120) return units(Math.max(1, Math.round(seconds)), "second");
  if (seconds < 5400) return units(Math.round(seconds / 60), "minute");
  return `${Math.round(seconds / 1800) / 2} hours`;
}

/** The speed measured, in words: 'the last 3 runs took 9 seconds for 60 stories'. */
export function throughputText(throughput: Throughput): string {
  const runs = throughput.runs === 1 ? "the last run" : `the last ${throughput.runs} runs`;
  return `${runs} took ${measuredText(throughput.seconds)} for ${throughput.stories} ${throughput.stories === 1 ? "story" : "stories"}`;
}

/** The one estimate shown before a run of `stories`. */
export function estimateText(stories: number, throughput: Throughput | null): string {
  const seconds = estimatedSeconds(stories, throughput);
  if (seconds === null || !throughput) return "No estimate yet: no run has been timed. This run is, and its speed gives the estimates after it.";
  return `Estimated time: ${durationText(seconds)} (${throughputText(throughput)}).`;
}

/** The spec's image texts (section 8), word for word. */
export const IMAGE_TEXT = {
  statsFailed: { title: "Error", description: "Failed to analyze images" },
  analysisComplete: "Image Analysis Complete",
  enhancementFailed: "Enhancement Failed",
  bulkFailed: "Bulk Enhancement Failed",
  testFailed: "Test Failed",
  defaultFailure: "Failed to enhance images",
  storyIdRequired: { title: "Story ID Required", description: "Please enter a story ID to test" },
} as const;
