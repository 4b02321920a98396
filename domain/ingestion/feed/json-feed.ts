import type { JsonFeed } from "feedsmith";
import { httpUrlOrNull } from "~/lib/http-url";
import { FeedParseError, type FeedItem, type ParsedFeed } from "./types";
import { detectVersion } from "./version";
import { contentOf, firstDate, firstImage, orNull, summaryOf, textOf, tryFeedsmith } from "./values";

// JSON Feed 1.0 and 1.1 to our shape.

type Json = JsonFeed.Feed<string>;
type JsonItem = JsonFeed.Item<string>;

function jsonItem(item: JsonItem, base: string | null): FeedItem {
  const contentHtml = contentOf(item.content_html, "html", base) ?? contentOf(item.content_text, "text", base);
  return {
    title: textOf(item.title, "text"),
    link: httpUrlOrNull(item.url, base) ?? httpUrlOrNull(item.external_url, base),
    guid: item.id == null ? null : orNull(String(item.id).trim()),
    publishedAt: firstDate(item.date_published, item.date_modified),
    summary: summaryOf(item.summary, "text") ?? summaryOf(item.content_text, "text") ?? summaryOf(item.content_html, "html"),
    contentHtml,
    imageUrl: httpUrlOrNull(item.image, base) ?? httpUrlOrNull(item.banner_image, base) ?? httpUrlOrNull(firstImage(contentHtml), base),
  };
}

/** A JSON Feed in our shape. */
export function fromJson(feed: Json, feedUrl: string | null, version: string | null): ParsedFeed {
  const base = feedUrl ?? httpUrlOrNull(feed.feed_url, null);
  const siteUrl = httpUrlOrNull(feed.home_page_url, base);
  const items = (feed.items ?? []).map((item) => jsonItem(item, siteUrl ?? base));
  return {
    format: "json",
    version,
    title: textOf(feed.title, "text"),
    description: textOf(feed.description, "text"),
    siteUrl,
    updatedAt: null,
    items,
  };
}

/** Parses a JSON Feed document. */
export function parseJsonFeed(text: string, feedUrl: string | null): ParsedFeed {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new FeedParseError("MALFORMED_FEED", "The JSON feed is not valid JSON.", { cause: error });
  }
  const parsed = tryFeedsmith(value as string);
  if (parsed instanceof Error || parsed.format !== "json") {
    throw new FeedParseError("NOT_A_FEED", "The JSON document is not a JSON Feed.", { cause: parsed instanceof Error ? parsed : undefined });
  }
  return fromJson(parsed.feed, feedUrl, detectVersion("json", text, value as Json));
}
