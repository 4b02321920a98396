import type { PublicStory } from "~/domain/stories/public-story";
import { storyShareImage } from "~/lib/story-image";
import { escapeXml } from "~/lib/xml";
import { absoluteUrl, xmlElement } from "./sitemap";

// RSS 2.0 (https://www.rssboard.org/rss-specification) with an atom:link to itself, as feed
// validators ask. Items link to the story's page on the site; the original article is the source.
// A story's picture is the enclosure, as the site serves it: the 1200 px JPEG variant of a picture
// from another site, or the site's own file.

const ATOM_NS = "http://www.w3.org/2005/Atom";

export type RssItem = Pick<
  PublicStory,
  "id" | "title" | "summary" | "imageUrl" | "sourceUrl" | "sourceName" | "category" | "slug" | "publishDate"
>;

export type RssChannel = {
  siteUrl: string;
  title: string;
  description: string;
  /** Where this feed is served (atom:link rel=self). */
  selfUrl: string;
  /** The page the feed stands for (the home page, a category page). */
  link: string;
  items: RssItem[];
  /** Defaults to the newest item's publish date, so the same stories give the same bytes. */
  lastBuildDate?: Date;
};

const IMAGE_TYPES: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  svg: "image/svg+xml",
};

/** The image's MIME type from its file extension; JPEG when the URL does not say (most news photos are). */
export function imageType(url: string): string {
  const extension = /\.([a-z0-9]+)$/i.exec(new URL(url).pathname)?.[1]?.toLowerCase();
  return (extension && IMAGE_TYPES[extension]) || "image/jpeg";
}

/** A date as RFC 822 wants it in RSS (`Tue, 02 Jan 2024 03:04:05 GMT`). */
export function rfc822(date: Date): string {
  return date.toUTCString();
}

function validDate(iso: string | null): Date | null {
  if (iso === null) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The address of a story's page on the site. */
export function storyPageUrl(siteUrl: string, slug: string): string {
  return `${siteUrl}/story/${encodeURIComponent(slug)}`;
}

function itemXml(siteUrl: string, item: RssItem): string {
  const link = storyPageUrl(siteUrl, item.slug);
  const lines = [xmlElement("title", item.title), xmlElement("link", link), `<guid isPermaLink="true">${escapeXml(link)}</guid>`];
  const published = validDate(item.publishDate);
  if (published) lines.push(xmlElement("pubDate", rfc822(published)));
  const summary = item.summary?.trim();
  if (summary) lines.push(xmlElement("description", summary));
  lines.push(xmlElement("category", item.category));
  const source = item.sourceUrl === "#" ? null : absoluteUrl(siteUrl, item.sourceUrl);
  if (source) {
    const name = item.sourceName?.trim() || new URL(source).hostname;
    lines.push(`<source url="${escapeXml(source)}">${escapeXml(name)}</source>`);
  }
  const image = storyShareImage(item, siteUrl);
  if (image) lines.push(`<enclosure url="${escapeXml(image.url)}" type="${imageType(image.url)}" length="0"/>`);
  return ["    <item>", ...lines.map((l) => `      ${l}`), "    </item>"].join("\n");
}

/** An RSS 2.0 document for a list of published stories, each with its image as an enclosure. */
export function buildRss(channel: RssChannel): string {
  const dates = channel.items.flatMap((i) => validDate(i.publishDate) ?? []);
  const newest = dates.length > 0 ? new Date(Math.max(...dates.map((d) => d.getTime()))) : undefined;
  const built = channel.lastBuildDate ?? newest;
  const head = [
    xmlElement("title", channel.title),
    xmlElement("link", channel.link),
    xmlElement("description", channel.description),
    xmlElement("language", "en"),
    ...(built ? [xmlElement("lastBuildDate", rfc822(built))] : []),
    `<atom:link href="${escapeXml(channel.selfUrl)}" rel="self" type="application/rss+xml"/>`,
  ];
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<rss version="2.0" xmlns:atom="${ATOM_NS}">`,
    "  <channel>",
    ...head.map((l) => `    ${l}`),
    ...channel.items.map((item) => itemXml(channel.siteUrl, item)),
    "  </channel>",
    "</rss>",
    "",
  ].join("\n");
}
