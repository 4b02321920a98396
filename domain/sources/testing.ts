import type { SourceFormInput } from "./source-form";

/** A valid source form for tests, as the dialog submits it; override what a test is about. */
export const sourceForm = (overrides: Partial<SourceFormInput> = {}): SourceFormInput => ({
  name: "Odd Planet",
  websiteUrl: "https://oddplanet.example",
  rssFeedUrl: "https://oddplanet.example/feed.xml",
  sourceType: "rss",
  status: "active",
  scrapingConfig: "",
  includeKeywords: [],
  excludeKeywords: [],
  notes: "",
  pollIntervalMinutes: "30",
  ...overrides,
});
