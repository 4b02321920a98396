import type { ScrapingConfig } from "~/db/schema";
import { DEFAULT_MIN_BODY } from "~/domain/ingestion/scrape-urls";
import { compileFilter, type UrlFilter } from "./patterns";

/** The spec's default (section 3): one request per second per host. */
export const DEFAULT_CRAWL_DELAY_MS = 1000;
/** A Crawl-delay beyond this is held to it, so one robots.txt cannot stall a whole discovery. */
export const MAX_CRAWL_DELAY_MS = 60_000;
export const MAX_AUTO_SCRAPE = 50;

/** A web_scraping source's config with every default applied. */
export type CrawlConfig = {
  startUrls: string[];
  filter: UrlFilter;
  jsRendering: boolean;
  waitForSelector: string | null;
  userAgent: string;
  crawlDelayMs: number;
  minBodyThreshold: number;
  autoScrape: number;
};

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);
const wholeNumber = (value: unknown, fallback: number, max = Number.MAX_SAFE_INTEGER) =>
  typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.min(Math.floor(value), max) : fallback;

/**
 * Reads a stored config. The source form already refused bad shapes; a value that is still wrong
 * (an older row) falls back to its default, and unusable patterns are reported, not ignored.
 */
export function readCrawlConfig(raw: ScrapingConfig | Record<string, unknown> | null | undefined, defaults: { userAgent: string }): CrawlConfig {
  const config = raw ?? {};
  const filter = compileFilter(strings(config.allowlistPatterns), strings(config.denylistPatterns));
  if (!filter.ok) throw new Error(`The scraping config has unusable patterns: ${filter.messages.join("; ")}`);
  const userAgent = typeof config.userAgent === "string" && config.userAgent.trim() !== "" ? config.userAgent.trim() : defaults.userAgent;
  const selector = typeof config.waitForSelector === "string" && config.waitForSelector.trim() !== "" ? config.waitForSelector.trim() : null;
  return {
    startUrls: strings(config.startUrls).map((u) => u.trim()).filter(Boolean),
    filter: filter.filter,
    jsRendering: config.jsRendering === true,
    waitForSelector: selector,
    userAgent,
    crawlDelayMs: wholeNumber(config.crawlDelay, DEFAULT_CRAWL_DELAY_MS, MAX_CRAWL_DELAY_MS),
    minBodyThreshold: wholeNumber(config.minBodyThreshold, DEFAULT_MIN_BODY),
    autoScrape: wholeNumber(config.autoScrape, 0, MAX_AUTO_SCRAPE),
  };
}
