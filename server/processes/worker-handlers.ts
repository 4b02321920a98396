import type { Repos } from "~/db/repos";
import type { PoliteClient } from "~/domain/crawl/polite-client";
import type { ParsedFeed, ParseFeedInput } from "~/domain/ingestion/feed/parse-feed";
import type { PageRenderer } from "~/integrations/browser/render-page";
import type { ParsedSitemap, ParseSitemapOptions } from "~/integrations/crawl/sitemap";
import { userAgentFor } from "~/integrations/http/guarded-client";
import { crawlHandlers } from "~/jobs/crawl.job";
import type { SchedulePost } from "~/domain/social/post-story";
import type { SourceLeaseTimes } from "~/domain/sources/lease";
import type { GraphClient } from "~/integrations/facebook/graph-client";
import { imageHandlers } from "~/jobs/images.job";
import { ingestionHandlers } from "~/jobs/ingestion.job";
import type { JobHandlers } from "~/jobs/runner";
import { socialHandlers } from "~/jobs/social.job";
import { triageHandlers } from "~/jobs/triage.job";
import type { Config } from "../config";
import type { Logger } from "../logger";

/** The work a worker process does: RSS ingestion, URL discovery, queue scraping, image enhancement, Facebook posts and the Pending list's triage. */
export function workerHandlers(input: {
  config: Pick<Config, "siteUrl">;
  repos: Repos;
  /** The politeness gate (server/politeness.ts): every request these jobs make to a site goes through it. */
  http: PoliteClient;
  logger: Logger;
  parseFeed: (input: ParseFeedInput) => Promise<ParsedFeed>;
  /** Sitemaps are parsed off the main thread too (the same worker as feeds), so discovery never stalls the site. */
  parseSitemap: (body: Uint8Array, options: ParseSitemapOptions) => Promise<ParsedSitemap>;
  /** Headless Chromium whose own client is the same gate. */
  renderer: PageRenderer | null;
  /** The Page's Graph API client, null when not configured (a post then fails with how to connect). */
  facebook: GraphClient | null;
  /** Queues a Facebook post's next attempt (the job runner, bound once it exists). */
  schedulePost: SchedulePost;
  /** The sources' lease times; the defaults but in tests. */
  sourceLeases?: SourceLeaseTimes;
}): JobHandlers {
  const { repos, http, logger, sourceLeases } = input;
  return {
    ...ingestionHandlers({ repos, http, logger, parseFeed: input.parseFeed }, sourceLeases),
    ...crawlHandlers({ repos, http, logger, userAgent: userAgentFor(input.config.siteUrl), renderer: input.renderer, parseSitemap: input.parseSitemap }, sourceLeases),
    ...imageHandlers({ repos, http, logger }),
    ...socialHandlers({ repos, graph: input.facebook, schedule: input.schedulePost, logger }),
    ...triageHandlers({ repos, logger }),
  };
}
