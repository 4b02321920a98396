import { FEED_CONTENT_TYPE, siteRss } from "~/domain/feeds/feeds";
import type { Route } from "./+types/rss";

// /rss.xml: the latest published stories.
export async function loader({ context }: Route.LoaderArgs) {
  const xml = await siteRss(context.publicRepos, context.config.siteUrl);
  return new Response(xml, { headers: { "Content-Type": FEED_CONTENT_TYPE.rss } });
}
