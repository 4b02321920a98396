import type { JobHandlers } from "./runner";

/**
 * For tests: a handler for every queue that does nothing, so a test spreads in only the work it looks
 * at (`{ ...idleHandlers, "scrape-queue": ... }`) and a new job kind is added here once.
 */
export const idleHandlers: JobHandlers = {
  "rss-ingestion": async () => ({}),
  "rss-poll": async () => null,
  "crawl-discovery": async () => ({}),
  "crawl-poll": async () => null,
  "scrape-queue": async () => ({}),
  "enhance-images": async () => ({}),
  "facebook-post": async () => ({}),
};
