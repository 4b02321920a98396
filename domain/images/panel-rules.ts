// The image panel's rules (spec sections 7-9). Pure, so the dashboard page imports them as they are.

/** How many of the newest stories the image analysis looks at. */
export const ANALYSIS_SIZE = 20;
/** The quick buttons' batch sizes. */
export const QUICK_BATCHES = [10, 50] as const;
/** Seconds the estimate allows per story. */
export const SECONDS_PER_STORY = 7;
/** Toast durations in ms: a bulk success, most enhancement messages, the missing-ID message. */
export const TOAST_MS = { bulkSuccess: 8_000, standard: 5_000, missingId: 3_000 } as const;

/** The bulk batch: every story needing work, plus ten. */
export function bulkBatchSize(needingWork: number): number {
  return needingWork + 10;
}

/** The estimate shown before a run: stories x 7 s, in whole minutes, rounded up. */
export function estimatedMinutes(stories: number): number {
  return Math.ceil((stories * SECONDS_PER_STORY) / 60);
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
  warning: "This may take 10-15 minutes.",
} as const;
