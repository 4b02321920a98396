import { createGraphClient, type GraphClient } from "~/integrations/facebook/graph-client";
import { configSecrets, type Config } from "./config";
import type { Logger } from "./logger";

/** The Graph API client for the configured Page (its errors scrubbed of every configured secret), or null when FACEBOOK_PAGE_ID and FACEBOOK_PAGE_TOKEN are not set. */
export function createFacebookGraph(config: Config, logger: Logger): GraphClient | null {
  if (!config.facebook) return null;
  return createGraphClient({
    baseUrl: config.facebook.graphUrl,
    pageId: config.facebook.pageId,
    pageToken: config.facebook.pageToken,
    // A Graph error echoing any of them is stored, shown and answered by the admin API: scrubbed where it is made.
    secrets: configSecrets(config),
    log: logger.child({ component: "facebook" }),
  });
}
