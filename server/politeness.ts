import type { Repos } from "~/db/repos";
import { createPoliteClient, type PoliteClient } from "~/domain/crawl/polite-client";
import { userAgentFor } from "~/integrations/http/guarded-client";
import type { HttpClient } from "~/integrations/http/types";
import type { Logger } from "./logger";

/**
 * The politeness gate over the guarded client (decision 021): what every part of the product that
 * sends requests to a site is given as its `http` (ingestion, discovery, queue and manual scraping,
 * image enhancement, the headless browser, watchlist titles, the RSS Validator). Only the public image
 * route keeps the bare guarded client.
 */
export function createPoliteness(input: { http: HttpClient; repos: Pick<Repos, "crawl">; logger: Logger; siteUrl: string }): PoliteClient {
  return createPoliteClient({ http: input.http, crawl: input.repos.crawl, logger: input.logger, userAgent: userAgentFor(input.siteUrl) });
}
