import { FEED_CONTENT_TYPE } from "~/domain/feeds/feeds";
import { buildRobotsTxt } from "~/domain/feeds/sitemap";
import type { Route } from "./+types/robots";

// /robots.txt: what crawlers may read, and where the sitemap is.
export function loader({ context }: Route.LoaderArgs) {
  const text = buildRobotsTxt({ siteUrl: context.config.siteUrl });
  return new Response(text, { headers: { "Content-Type": FEED_CONTENT_TYPE.text } });
}
