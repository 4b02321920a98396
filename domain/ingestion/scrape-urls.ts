import type { IngestionDeps } from "./deps";

export type ScrapeOutcome = "inserted" | "duplicate" | "previously_rejected" | "failed";

export type ScrapeUrlResult = { url: string; success: boolean; outcome: ScrapeOutcome; error?: string; storyId?: number };

/** The result of scrape-urls: counts, and one line per URL in input order. */
export type ScrapeResult = { inserted: number; skipped: number; failed: number; total: number; results: ScrapeUrlResult[] };

/** Fetches each URL, extracts its article and stores the new ones as pending stories. */
export async function scrapeUrls(_deps: IngestionDeps, _input: { urls: string[]; sourceId?: number | null }): Promise<ScrapeResult> {
  throw new Error("scrapeUrls is not built yet");
}
