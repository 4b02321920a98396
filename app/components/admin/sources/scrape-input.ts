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
