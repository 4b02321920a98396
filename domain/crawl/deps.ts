import type { PageRenderer } from "~/integrations/browser/render-page";
import type { IngestionDeps } from "~/domain/ingestion/deps";
import type { PoliteFetcher } from "./polite-fetch";

/** What discovery and queue scraping need beyond ingestion's dependencies. */
export type CrawlDeps = IngestionDeps & {
  /** The per-origin gate every crawl request goes through. */
  fetcher: PoliteFetcher;
  /** The User-Agent of sources that set none: the product token with a contact URL on SITE_URL. */
  userAgent: string;
  /** Headless Chromium for jsRendering sources; null where none is available. */
  renderer: PageRenderer | null;
};
