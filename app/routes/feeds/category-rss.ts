import { categoryRss, FEED_CONTENT_TYPE } from "~/domain/feeds/feeds";
import type { Route } from "./+types/category-rss";

// /category/:slug/rss.xml: one category's latest published stories; 404 for an unknown category.
export async function loader({ context, params }: Route.LoaderArgs) {
  const xml = await categoryRss(context.publicRepos, context.config.siteUrl, params.slug);
  if (xml === null) return new Response("Not found\n", { status: 404, headers: { "Content-Type": FEED_CONTENT_TYPE.text } });
  return new Response(xml, { headers: { "Content-Type": FEED_CONTENT_TYPE.rss } });
}
