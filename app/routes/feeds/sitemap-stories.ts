import { FEED_CONTENT_TYPE, storiesSitemap } from "~/domain/feeds/feeds";
import type { Route } from "./+types/sitemap-stories";

// /sitemaps/stories/N.xml: the Nth page of published stories; 404 for any other name or a page past the end.
export async function loader({ context, params }: Route.LoaderArgs) {
  const page = /^([1-9]\d{0,8})\.xml$/.exec(params.file)?.[1];
  const xml = page === undefined ? null : await storiesSitemap(context.publicRepos, context.config.siteUrl, Number(page));
  if (xml === null) return new Response("Not found\n", { status: 404, headers: { "Content-Type": FEED_CONTENT_TYPE.text } });
  return new Response(xml, { headers: { "Content-Type": FEED_CONTENT_TYPE.xml } });
}
