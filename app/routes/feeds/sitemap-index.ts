import { FEED_CONTENT_TYPE, sitemapIndex } from "~/domain/feeds/feeds";
import type { Route } from "./+types/sitemap-index";

// /sitemap.xml: the index of every sitemap file.
export async function loader({ context }: Route.LoaderArgs) {
  const xml = await sitemapIndex(context.publicRepos, context.config.siteUrl);
  return new Response(xml, { headers: { "Content-Type": FEED_CONTENT_TYPE.xml } });
}
