import type { Repos } from "~/db/repos";
import type { ParsedFeed, ParseFeedInput } from "~/domain/ingestion/feed/parse-feed";
import type { GraphClient } from "~/integrations/facebook/graph-client";
import type { HttpClient } from "~/integrations/http/types";
import type { JobsApi } from "~/jobs/types";
import type { RateLimiter } from "~/lib/rate-limit";
import type { Config } from "./config";
import type { Logger } from "./logger";

/** What the browser may know of the configuration: nothing secret. */
export type PublicConfig = { siteUrl: string; contactEmail: string; socialUrl: string };

/** Who a request's session belongs to, as better-auth reports it. */
export type SessionUser = { id: string; email: string; name: string; emailVerified: boolean };

/** Handed to every loader and action: the request's way to the domain. */
export type AppContext = {
  repos: Repos;
  /**
   * The repositories as the public pages read them: the same, but for categories, read through a
   * copy kept as long as a page is (domain/public/public-categories.ts) and dropped with the page cache.
   */
  publicRepos: Repos;
  /** The signed-in user of a request, or null. */
  getSessionUser: (headers: Headers) => Promise<SessionUser | null>;
  config: PublicConfig;
  /** The origins a change is accepted from (Config.trustedOrigins); SITE_URL's alone when absent. */
  trustedOrigins?: string[];
  /**
   * The page is rendered for the page cache, which sends it once complete: it is rendered whole before
   * its first byte, never streamed in parts, so the same content always makes the same bytes (one ETag).
   */
  wholePage?: boolean;
  /** The address of the client making this request (the socket's, or a trusted local proxy's X-Forwarded-For). */
  clientAddress: string;
  /** Per-client limits on public search: in this process's memory, or the cluster primary's for all its web processes. */
  rateLimits: { search: RateLimiter; suggestions: RateLimiter };
  logger: Logger;
  /**
   * The politeness gate over the guarded client (decision 021), for every request the back office makes
   * to a site: robots.txt, its Crawl-delay and one request at a time per origin across processes.
   */
  http: HttpClient;
  /** Parses a feed off the request's thread, cut off after a time limit (the feed parser pool). */
  parseFeed: (input: ParseFeedInput) => Promise<ParsedFeed>;
  /** Starts and reports on background work (RSS ingestion). */
  jobs: JobsApi;
  /** The Facebook Page the site posts to: null when FACEBOOK_PAGE_ID and FACEBOOK_PAGE_TOKEN are not set. */
  facebook: GraphClient | null;
  /** Drops the cached public pages after an editorial change: this process's at once, other web processes' on PostgreSQL by NOTIFY. */
  invalidatePublicPages: () => void;
  /** Whether the site serves the picture a path names (/demo/cat.svg): a story's picture may be one. */
  sitePictureExists: (sitePath: string) => Promise<boolean>;
};

/** The public subset of the configuration. */
export function publicConfig(config: Config): PublicConfig {
  return {
    siteUrl: config.siteUrl,
    contactEmail: config.contactEmail,
    socialUrl: config.facebook ? `https://www.facebook.com/${config.facebook.pageId}` : "https://www.facebook.com/",
  };
}

declare module "react-router" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends AppContext {}
}
