import type { RssFeed } from "feedsmith";
import { sanitizeHtml } from "~/lib/html";
import { httpUrlOrNull } from "~/lib/http-url";
import type { FeedItem, ParsedFeed } from "./types";
import { alternateLink, contentOf, firstDate, firstImage, HTML_TAG, IMAGE_EXT, itemBase, mediaDescription, mediaImage, orNull, resolveBase, summaryOf, textOf } from "./values";

// RSS 0.9x and 2.0 (with the namespaces feeds put in them) to our shape.

type Rss = RssFeed.Feed<string>;
type RssItem = RssFeed.Item<string>;

function enclosureImage(enclosures: RssFeed.Enclosure[] | undefined, base: string | null): string | null {
  for (const e of enclosures ?? []) {
    const type = (e.type ?? "").toLowerCase();
    if (type.startsWith("image/") || (!type && IMAGE_EXT.test(e.url ?? ""))) {
      const url = httpUrlOrNull(e.url, base);
      if (url) return url;
    }
  }
  return null;
}

function rssItem(item: RssItem, channelBase: string | null): FeedItem {
  const base = resolveBase(item.xml?.base, channelBase);
  const guid = orNull(item.guid?.value?.trim());
  const guidLink = guid && item.guid?.isPermaLink !== false ? httpUrlOrNull(guid, null) : null;
  const link = httpUrlOrNull(item.link, base) ?? alternateLink(item.atom?.links, base) ?? guidLink;
  const description = item.description ?? item.dc?.descriptions?.[0];
  const encoded = item.content?.encoded;
  const contentHtml = contentOf(encoded, "html", base) ?? (description && HTML_TAG.test(description) ? contentOf(description, "html", base) : null);
  const summary =
    summaryOf(description, "html") ??
    summaryOf(encoded, "html") ??
    summaryOf(item.itunes?.summary ?? item.googleplay?.description ?? item.itunes?.subtitle ?? mediaDescription(item.media), "html");
  return {
    title: textOf(item.title ?? item.dc?.titles?.[0] ?? item.media?.title?.value),
    link,
    guid,
    publishedAt: firstDate(item.pubDate, item.dc?.dates, item.atom?.published, item.dcterms?.issued, item.dcterms?.created, item.atom?.updated, item.dcterms?.modified),
    summary,
    contentHtml,
    imageUrl:
      mediaImage(item.media, base) ??
      enclosureImage(item.enclosures, base) ??
      httpUrlOrNull(item.itunes?.image, base) ??
      httpUrlOrNull(firstImage(contentHtml ?? (description ? sanitizeHtml(description, { baseUrl: base }) : null)), base),
  };
}

/** An RSS 0.9x/2.0 channel in our shape. */
export function fromRss(feed: Rss, feedUrl: string | null, version: string | null): ParsedFeed {
  const base = resolveBase(feed.xml?.base, feedUrl);
  const siteUrl = httpUrlOrNull(feed.link, base) ?? alternateLink(feed.atom?.links, base);
  return {
    format: "rss",
    version,
    title: textOf(feed.title ?? feed.dc?.titles?.[0]),
    description: textOf(feed.description ?? feed.dc?.descriptions?.[0] ?? feed.itunes?.summary ?? feed.itunes?.subtitle, "html"),
    siteUrl,
    updatedAt: firstDate(feed.lastBuildDate, feed.pubDate, feed.dc?.dates, feed.dcterms?.modified, feed.dcterms?.issued, feed.dcterms?.created, feed.atom?.updated),
    items: (feed.items ?? []).map((item) => rssItem(item, itemBase(feed.xml?.base, base, siteUrl))),
  };
}
