/** Accept headers of our fetches: what a feed URL and what a web page may answer with, best first. */
export const FEED_ACCEPT =
  "application/rss+xml, application/atom+xml, application/feed+json, application/json;q=0.9, application/xml;q=0.9, text/xml;q=0.8, */*;q=0.5";
export const PAGE_ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5";
