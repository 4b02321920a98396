import type { PageRenderer } from "~/integrations/browser/render-page";
import type { ParsedSitemap, ParseSitemapOptions } from "~/integrations/crawl/sitemap";
import type { IngestionDeps } from "~/domain/ingestion/deps";
import type { PoliteClient } from "./polite-client";

/** What discovery and queue scraping need beyond ingestion's dependencies. */
export type CrawlDeps = Omit<IngestionDeps, "http"> & {
  /** The per-origin gate every request to a site goes through, with the robots.txt it reads. */
  http: PoliteClient;
  /** The User-Agent of sources that set none: the product token with a contact URL on SITE_URL. */
  userAgent: string;
  /** Headless Chromium for jsRendering sources (its every request through `http`); null where none is available. */
  renderer: PageRenderer | null;
  /** Sitemap parsing, when it runs elsewhere (a worker thread, which may take the body over); on this thread, in chunks that yield, otherwise. */
  parseSitemap?: (body: Uint8Array, options: ParseSitemapOptions) => Promise<ParsedSitemap>;
};
