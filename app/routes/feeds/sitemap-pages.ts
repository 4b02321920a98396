import { FEED_CONTENT_TYPE, pagesSitemap } from "~/domain/feeds/feeds";
import type { Route } from "./+types/sitemap-pages";

// /sitemaps/pages.xml: home, site map, contact and legal pages, category pages.
export async function loader({ context }: Route.LoaderArgs) {
  const xml = await pagesSitemap(context.publicRepos, context.config.siteUrl);
  return new Response(xml, { headers: { "Content-Type": FEED_CONTENT_TYPE.xml } });
}
