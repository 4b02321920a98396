import { FEED_CONTENT_TYPE, newsSitemap } from "~/domain/feeds/feeds";
import type { Route } from "./+types/sitemap-news";

// /sitemaps/news.xml: the Google News sitemap of the last two days.
export async function loader({ context }: Route.LoaderArgs) {
  const xml = await newsSitemap(context.publicRepos, context.config.siteUrl, new Date());
  return new Response(xml, { headers: { "Content-Type": FEED_CONTENT_TYPE.xml } });
}
