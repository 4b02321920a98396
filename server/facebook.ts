import { createGraphClient, type GraphClient } from "~/integrations/facebook/graph-client";
import type { Config } from "./config";
import type { Logger } from "./logger";

/** The Graph API client for the configured Page, or null when FACEBOOK_PAGE_ID and FACEBOOK_PAGE_TOKEN are not set. */
export function createFacebookGraph(config: Pick<Config, "facebook">, logger: Logger): GraphClient | null {
  if (!config.facebook) return null;
  return createGraphClient({
    baseUrl: config.facebook.graphUrl,
    pageId: config.facebook.pageId,
    pageToken: config.facebook.pageToken,
    log: logger.child({ component: "facebook" }),
  });
}
