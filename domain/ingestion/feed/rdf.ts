import type { RdfFeed } from "feedsmith";
import { httpUrlOrNull } from "~/lib/http-url";
import type { FeedItem, ParsedFeed } from "./types";
import { contentOf, firstDate, firstImage, HTML_TAG, itemBase, mediaImage, orNull, resolveBase, summaryOf, textOf } from "./values";

// RSS 1.0 and 0.90 (RDF) to our shape.

type Rdf = RdfFeed.Feed<string>;
type RdfItem = RdfFeed.Item<string>;

function rdfItem(item: RdfItem, channelBase: string | null): FeedItem {
  const base = resolveBase(item.xml?.base, channelBase);
  const description = item.description ?? item.dc?.descriptions?.[0];
  const encoded = item.content?.encoded;
  const contentHtml = contentOf(encoded, "html", base) ?? (description && HTML_TAG.test(description) ? contentOf(description, "html", base) : null);
  return {
    title: textOf(item.title ?? item.dc?.titles?.[0]),
    link: httpUrlOrNull(item.link, base) ?? httpUrlOrNull(item.rdf?.about, base),
    guid: orNull(item.rdf?.about?.trim()) ?? orNull(item.link?.trim()),
    publishedAt: firstDate(item.dc?.dates, item.dcterms?.issued, item.dcterms?.created, item.dcterms?.modified),
    summary: summaryOf(description, "html") ?? summaryOf(encoded, "html"),
    contentHtml,
    imageUrl: mediaImage(item.media, base) ?? httpUrlOrNull(firstImage(contentHtml), base),
  };
}

/** An RDF channel in our shape. */
export function fromRdf(feed: Rdf, feedUrl: string | null, version: string | null): ParsedFeed {
  const base = resolveBase(feed.xml?.base, feedUrl);
  const siteUrl = httpUrlOrNull(feed.link, base);
  return {
    format: "rdf",
    version,
    title: textOf(feed.title ?? feed.dc?.titles?.[0]),
    description: textOf(feed.description ?? feed.dc?.descriptions?.[0], "html"),
    siteUrl,
    updatedAt: firstDate(feed.dc?.dates),
    items: (feed.items ?? []).map((item) => rdfItem(item, itemBase(feed.xml?.base, base, siteUrl))),
  };
}
