import type { ScrapeUrlResult } from "~/domain/ingestion/scrape-urls";
import { isHttpUrl } from "~/lib/http-url";

/** Every http(s) URL in pasted text, split on newlines, commas and whitespace, in order, each once. */
export function parseScrapeInput(text: string): string[] {
  const urls: string[] = [];
  for (const token of text.split(/[\s,]+/)) {
    if (!isHttpUrl(token) || urls.includes(token)) continue;
    urls.push(token);
  }
  return urls;
}

/** The count line under the textarea, in the spec's words. */
export function detectedUrlsLine(count: number): string {
  return count === 0 ? "No valid URLs detected" : `${count} valid URL(s) detected`;
}

/** Splits a list into runs of at most `size`, so long pastes are scraped in steps the page can report. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

/**
 * What the box keeps after a scrape, one URL per line, so they can be tried again: the URLs that
 * failed, then those never tried (a request that broke off). Stored, duplicate and rejected ones go.
 */
export function urlsToRetry(results: readonly Pick<ScrapeUrlResult, "url" | "outcome">[], untried: readonly string[] = []): string[] {
  return [...results.filter((r) => r.outcome === "failed").map((r) => r.url), ...untried];
}

/** The line under the box when it kept URLs to retry. */
export function keptUrlsLine(count: number): string {
  return `${count} URL(s) could not be scraped and are left in the box to try again.`;
}
