import { type AnyFeed, type AtomFeed, DetectError, type JsonFeed, type MediaNs, parseFeed as feedsmithParse, type RdfFeed, type RssFeed } from "feedsmith";
import { DomainError } from "~/domain/errors";
import { decodeFeedBytes } from "~/domain/ingestion/feed/decode";
import { parseFeedDate } from "~/domain/ingestion/feed/parse-date";
import { htmlToText, sanitizeHtml } from "~/domain/ingestion/html";

export type FeedFormat = "rss" | "atom" | "rdf" | "json";

/** One entry of a feed in our own shape, whatever the format. */
export type FeedItem = {
  title: string | null;
  link: string | null;
  guid: string | null;
  /** ISO 8601, UTC. */
  publishedAt: string | null;
  /** Plain text, never HTML. */
  summary: string | null;
  /** Sanitised HTML. */
  contentHtml: string | null;
  imageUrl: string | null;
};

export type ParsedFeed = {
  format: FeedFormat;
  version: string | null;
  title: string | null;
  description: string | null;
  siteUrl: string | null;
  /** ISO 8601, UTC. */
  updatedAt: string | null;
  items: FeedItem[];
};

/**
 * The document is not a feed. Codes: NOT_A_FEED (no RSS, RDF, Atom or JSON Feed root: an HTML page,
 * an empty body, anything else) and MALFORMED_FEED (it starts like a feed but cannot be read even after repair).
 * A well-formed feed with no entries is not an error: it parses with `items: []`.
 */
export class FeedParseError extends DomainError {
  constructor(code: "NOT_A_FEED" | "MALFORMED_FEED", message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "FeedParseError";
  }
}

export type ParseFeedInput = { bytes: Uint8Array | string; contentType?: string | null; url?: string | null };

type Rss = RssFeed.Feed<string>;
type RssItem = RssFeed.Item<string>;
type Atom = AtomFeed.Feed<string>;
type AtomEntry = AtomFeed.Entry<string>;
type AtomText = AtomFeed.Text;
type Rdf = RdfFeed.Feed<string>;
type RdfItem = RdfFeed.Item<string>;
type Json = JsonFeed.Feed<string>;
type JsonItem = JsonFeed.Item<string>;
type Media = MediaNs.ItemOrFeed;

// ---------------------------------------------------------------------------------------------
// Small helpers

function resolveUrl(value: string | null | undefined, base: string | null): string | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (trimmed === "") return null;
  try {
    const url = base ? new URL(trimmed, base) : new URL(trimmed);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

/** A base URL for resolving: any absolute URL (http, https, or a urn the feed author meant as base). */
function resolveBase(value: string | null | undefined, base: string | null): string | null {
  if (!value) return base;
  try {
    return base ? new URL(value.trim(), base).href : new URL(value.trim()).href;
  } catch {
    return base;
  }
}

const HTML_HINT =
  /<\/?(?:a|abbr|acronym|address|b|big|blockquote|br|center|cite|code|dd|del|div|dl|dt|em|font|h[1-6]|hr|i|img|ins|kbd|li|ol|p|pre|q|s|small|span|strike|strong|sub|sup|table|tbody|td|th|thead|tr|tt|u|ul|iframe|script|style|object|embed|figure|figcaption|section|article)\b[^>]*>|&(?:#\d+|#x[\da-f]+|[a-z][a-z\d]+);/i;
const HTML_TAG = /<\/?[a-z][a-z\d]*\b[^>]*>/i;

function collapse(value: string): string {
  return value.replace(/[\s\u00a0]+/g, " ").trim();
}

function orNull(value: string | null | undefined): string | null {
  return value == null || value === "" ? null : value;
}

/** Plain text of a value that is HTML when it looks like HTML (RSS leaves the type unsaid). */
function textOf(value: string | null | undefined, kind: "html" | "text" | "guess" = "guess"): string | null {
  if (value == null) return null;
  const html = kind === "html" || (kind === "guess" && HTML_HINT.test(value));
  return orNull(html ? collapse(htmlToText(value)) : collapse(value));
}

/** Multi-line plain text for summaries: one line per block. */
function summaryOf(value: string | null | undefined, kind: "html" | "text"): string | null {
  if (value == null) return null;
  return orNull(kind === "html" ? htmlToText(value) : value.replace(/[ \t\u00a0]+/g, " ").replace(/\s*\n\s*/g, "\n").trim());
}

function escapeHtml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function contentOf(value: string | null | undefined, kind: "html" | "text", base: string | null): string | null {
  if (value == null || value.trim() === "") return null;
  const html = kind === "html" ? sanitizeHtml(value, { baseUrl: base }) : escapeHtml(value.trim());
  return orNull(html.trim());
}

function atomKind(type: string | undefined): "html" | "text" {
  if (!type) return "text";
  const t = type.toLowerCase();
  return t === "html" || t === "xhtml" || t.includes("html") ? "html" : "text";
}

const IMAGE_EXT = /\.(?:jpe?g|png|gif|webp|avif|bmp|svg)(?:$|[?#])/i;

function firstImage(html: string | null): string | null {
  if (!html) return null;
  const match = /<img\b[^>]*?\bsrc="([^"]+)"/i.exec(html);
  return match ? match[1]!.replace(/&amp;/g, "&") : null;
}

function mediaImage(media: Media | undefined, base: string | null): string | null {
  if (!media) return null;
  const isImage = (c: MediaNs.Content): boolean =>
    c.medium === "image" || (c.type ?? "").toLowerCase().startsWith("image/") || (!c.medium && !c.type && IMAGE_EXT.test(c.url ?? ""));
  const fromContents = (contents: MediaNs.Content[] | undefined): string | null => {
    for (const c of contents ?? []) {
      if (isImage(c)) {
        const url = resolveUrl(c.url, base);
        if (url) return url;
      }
    }
    for (const c of contents ?? []) {
      for (const t of c.thumbnails ?? []) {
        const url = resolveUrl(t.url, base);
        if (url) return url;
      }
    }
    return null;
  };
  const fromThumbs = (thumbs: MediaNs.Thumbnail[] | undefined): string | null => {
    for (const t of thumbs ?? []) {
      const url = resolveUrl(t.url, base);
      if (url) return url;
    }
    return null;
  };
  const groups = media.groups ?? [];
  return (
    fromContents(media.contents) ??
    fromThumbs(media.thumbnails) ??
    groups.map((g) => fromContents(g.contents) ?? fromThumbs(g.thumbnails)).find((u) => u) ??
    null
  );
}

function enclosureImage(enclosures: RssFeed.Enclosure[] | undefined, base: string | null): string | null {
  for (const e of enclosures ?? []) {
    const type = (e.type ?? "").toLowerCase();
    if (type.startsWith("image/") || (!type && IMAGE_EXT.test(e.url ?? ""))) {
      const url = resolveUrl(e.url, base);
      if (url) return url;
    }
  }
  return null;
}

function firstDate(...values: (string | null | undefined | (string | null | undefined)[])[]): string | null {
  for (const v of values.flat()) {
    const parsed = parseFeedDate(v ?? null);
    if (parsed) return parsed;
  }
  return null;
}

function alternateLink(links: AtomFeed.Link<string>[] | undefined, base: string | null): string | null {
  const candidates = (links ?? []).filter((l) => !l.rel || l.rel === "alternate");
  const preferred = candidates.find((l) => !l.type || l.type.includes("html")) ?? candidates[0];
  for (const link of preferred ? [preferred, ...candidates] : []) {
    const url = resolveUrl(link.href, base);
    if (url) return url;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Format mappings

function mediaDescription(media: Media | undefined): string | undefined {
  return media?.description?.value ?? media?.groups?.find((g) => g.description)?.description?.value;
}

function rssItem(item: RssItem, channelBase: string | null): FeedItem {
  const base = resolveBase(item.xml?.base, channelBase);
  const guid = orNull(item.guid?.value?.trim());
  const guidLink = guid && item.guid?.isPermaLink !== false ? resolveUrl(guid, null) : null;
  const link = resolveUrl(item.link, base) ?? alternateLink(item.atom?.links, base) ?? guidLink;
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
      resolveUrl(item.itunes?.image, base) ??
      resolveUrl(firstImage(contentHtml ?? (description ? sanitizeHtml(description, { baseUrl: base }) : null)), base),
  };
}

/**
 * Relative item links resolve against xml:base when the feed sets one, else against the site URL
 * (a feed often lives on another host than its articles, as miniflux found), else the feed URL.
 */
function itemBase(xmlBase: string | undefined, base: string | null, siteUrl: string | null): string | null {
  return xmlBase ? base : (siteUrl ?? base);
}

function fromRss(feed: Rss, feedUrl: string | null, version: string | null): ParsedFeed {
  const base = resolveBase(feed.xml?.base, feedUrl);
  const siteUrl = resolveUrl(feed.link, base) ?? alternateLink(feed.atom?.links, base);
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

/** RFC 4287: content whose type is a MIME type other than text or XML is base64. */
function unBase64(value: string | undefined, type: string | undefined): { value: string | undefined; type: string | undefined } {
  if (!value || !type || !type.includes("/") || /^text\/|[/+]xml$/i.test(type)) return { value, type };
  const decoded = Buffer.from(value.replace(/\s+/g, ""), "base64").toString("utf8");
  return { value: decoded, type: HTML_TAG.test(decoded) ? "html" : "text" };
}

function atomTextValue(text: AtomText | undefined): string | null {
  if (!text) return null;
  const { value, type } = unBase64(text.value, text.type);
  return textOf(value, type ? atomKind(type) : "guess");
}

function atomEntry(entry: AtomEntry, feedBase: string | null): FeedItem {
  const base = resolveBase(entry.xml?.base, feedBase);
  const content = entry.content && { ...entry.content, ...unBase64(entry.content.value, entry.content.type) };
  const summaryText = entry.summary && { ...entry.summary, ...unBase64(entry.summary.value, entry.summary.type) };
  const contentBase = resolveBase(content?.xml?.base, base);
  const summaryBase = resolveBase(summaryText?.xml?.base, base);
  const contentKind = content?.type ? atomKind(content.type) : content?.value && HTML_TAG.test(content.value) ? "html" : "text";
  const summaryKind = summaryText?.type ? atomKind(summaryText.type) : summaryText?.value && HTML_TAG.test(summaryText.value) ? "html" : "text";
  const contentHtml =
    (content?.src ? null : contentOf(content?.value, contentKind, contentBase)) ??
    (summaryKind === "html" ? contentOf(summaryText?.value, "html", summaryBase) : null);
  return {
    title: atomTextValue(entry.title),
    // Like an RSS permalink guid, an http(s) id stands in for a missing link.
    link: alternateLink(entry.links, base) ?? (/^https?:\/\//i.test(entry.id?.trim() ?? "") ? resolveUrl(entry.id, null) : null),
    guid: orNull(entry.id?.trim()),
    publishedAt: firstDate(entry.published, entry.dc?.dates, entry.updated, entry.dcterms?.issued, entry.dcterms?.modified),
    summary:
      summaryOf(summaryText?.value, summaryKind) ??
      (content?.src ? null : summaryOf(content?.value, contentKind)) ??
      summaryOf(entry.itunes?.summary ?? entry.itunes?.subtitle ?? mediaDescription(entry.media), "html"),
    contentHtml,
    imageUrl: mediaImage(entry.media, base) ?? resolveUrl(entry.itunes?.image, base) ?? resolveUrl(firstImage(contentHtml), base),
  };
}

function fromAtom(feed: Atom, feedUrl: string | null, version: string | null): ParsedFeed {
  const base = resolveBase(feed.xml?.base, feedUrl);
  const siteUrl = alternateLink(feed.links, base);
  return {
    format: "atom",
    version,
    title: atomTextValue(feed.title),
    description: atomTextValue(feed.subtitle),
    siteUrl,
    updatedAt: firstDate(feed.updated, feed.dc?.dates),
    items: (feed.entries ?? []).map((entry) => atomEntry(entry, itemBase(feed.xml?.base, base, siteUrl))),
  };
}

function rdfItem(item: RdfItem, channelBase: string | null): FeedItem {
  const base = resolveBase(item.xml?.base, channelBase);
  const description = item.description ?? item.dc?.descriptions?.[0];
  const encoded = item.content?.encoded;
  const contentHtml = contentOf(encoded, "html", base) ?? (description && HTML_TAG.test(description) ? contentOf(description, "html", base) : null);
  return {
    title: textOf(item.title ?? item.dc?.titles?.[0]),
    link: resolveUrl(item.link, base) ?? resolveUrl(item.rdf?.about, base),
    guid: orNull(item.rdf?.about?.trim()) ?? orNull(item.link?.trim()),
    publishedAt: firstDate(item.dc?.dates, item.dcterms?.issued, item.dcterms?.created, item.dcterms?.modified),
    summary: summaryOf(description, "html") ?? summaryOf(encoded, "html"),
    contentHtml,
    imageUrl: mediaImage(item.media, base) ?? resolveUrl(firstImage(contentHtml), base),
  };
}

function fromRdf(feed: Rdf, feedUrl: string | null, version: string | null): ParsedFeed {
  const base = resolveBase(feed.xml?.base, feedUrl);
  const siteUrl = resolveUrl(feed.link, base);
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

function jsonItem(item: JsonItem, base: string | null): FeedItem {
  const contentHtml = contentOf(item.content_html, "html", base) ?? contentOf(item.content_text, "text", base);
  return {
    title: textOf(item.title, "text"),
    link: resolveUrl(item.url, base) ?? resolveUrl(item.external_url, base),
    guid: item.id == null ? null : orNull(String(item.id).trim()),
    publishedAt: firstDate(item.date_published, item.date_modified),
    summary: summaryOf(item.summary, "text") ?? summaryOf(item.content_text, "text") ?? summaryOf(item.content_html, "html"),
    contentHtml,
    imageUrl: resolveUrl(item.image, base) ?? resolveUrl(item.banner_image, base) ?? resolveUrl(firstImage(contentHtml), base),
  };
}

function fromJson(feed: Json, feedUrl: string | null, version: string | null): ParsedFeed {
  const base = feedUrl ?? resolveUrl(feed.feed_url, null);
  const siteUrl = resolveUrl(feed.home_page_url, base);
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

// ---------------------------------------------------------------------------------------------
// Recovery: leading junk, truncation, a missing channel

/** Drops a BOM and anything before the first markup that can start an XML feed. */
function trimLeadingJunk(text: string): string {
  const start = text.search(/<(?:\?xml|!--|!DOCTYPE|(?:[\w-]+:)?(?:rss|feed|RDF)\b)/i);
  return start > 0 ? text.slice(start) : text.replace(/^\uFEFF/, "");
}

const TOKEN = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>|<![^>]*>|<(\/?)([A-Za-z_][\w:.-]*)(?:"[^"]*"|'[^']*'|[^'">])*?(\/?)>/g;

/** Closes what a truncated document left open, after its last complete entry. */
function closeTruncated(text: string): string {
  let cut = -1;
  for (const m of text.matchAll(/<\/(?:[\w-]+:)?(?:item|entry)\s*>/gi)) cut = m.index! + m[0].length;
  if (cut === -1) cut = text.lastIndexOf(">") + 1;
  const prefix = text.slice(0, cut);
  const stack: string[] = [];
  for (const m of prefix.matchAll(TOKEN)) {
    const name = m[2];
    if (!name || m[3]) continue;
    if (m[1]) {
      const at = stack.lastIndexOf(name);
      if (at !== -1) stack.length = at;
    } else {
      stack.push(name);
    }
  }
  return prefix + stack.reverse().map((name) => `</${name}>`).join("");
}

/** Wraps channel content in <channel> when an RSS document has none (`<rss><item>…</item></rss>`). */
function addChannel(text: string): string | null {
  if (/<(?:[\w-]+:)?channel[\s>]/i.test(text)) return null;
  const open = /<((?:[\w-]+:)?rss)\b[^>]*>/i.exec(text);
  if (!open) return null;
  const afterOpen = open.index + open[0].length;
  const close = text.search(new RegExp(`</${open[1]}\\s*>`, "i"));
  const end = close === -1 ? text.length : close;
  return `${text.slice(0, afterOpen)}<channel>${text.slice(afterOpen, end)}</channel>${text.slice(end)}`;
}

/** `<r:rss xmlns:r="…">`: feedsmith only knows unprefixed RSS, so drop the root's prefix everywhere. */
function unprefixRss(text: string): string {
  const m = /<([\w-]+):rss\b/.exec(text);
  if (!m) return text;
  return text.replace(new RegExp(`<(/?)${m[1]}:`, "g"), "<$1");
}

/** Atom 0.3 `mode="base64"`: decode in place, as escaped text, before feedsmith (which ignores mode). */
function decodeBase64Modes(text: string): string {
  if (!/mode\s*=\s*["']base64["']/.test(text)) return text;
  return text.replace(/<([\w:.-]+)(\s[^>]*?)\bmode\s*=\s*["']base64["']([^>]*)>([\s\S]*?)<\/\1\s*>/g, (_m, name: string, before: string, after: string, body: string) => {
    const decoded = Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
    return `<${name}${before}mode="escaped"${after}>${escapeHtml(decoded)}</${name}>`;
  });
}

function emptyFeed(text: string): ParsedFeed | null {
  const root = /<(?:[\w-]+:)?(rss|feed|RDF)\b[^>]*>/i.exec(text);
  if (!root) return null;
  const format: FeedFormat = root[1] === "rss" ? "rss" : root[1] === "feed" ? "atom" : "rdf";
  // Only a root with nothing readable inside: anything more is malformed, not empty.
  const inner = text.slice(root.index + root[0].length).replace(/<!--[\s\S]*?-->/g, "");
  if (/<(?:[\w-]+:)?(?:item|entry)\b/i.test(inner)) return null;
  return { format, version: detectVersion(format, text, null), title: null, description: null, siteUrl: null, updatedAt: null, items: [] };
}

function tryFeedsmith(text: string): AnyFeed | Error {
  try {
    return feedsmithParse(text);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

function detectVersion(format: FeedFormat, text: string, json: Json | null): string | null {
  if (format === "json") {
    const v = /version\/(\d+(?:\.\d+)?)/.exec(String((json as { version?: unknown } | null)?.version ?? ""));
    return v ? v[1]! : null;
  }
  if (format === "atom") {
    if (/http:\/\/www\.w3\.org\/2005\/Atom/.test(text)) return "1.0";
    const v = /<(?:[\w-]+:)?feed\b[^>]*\bversion\s*=\s*["']([^"']+)["']/i.exec(text);
    return v ? v[1]! : /purl\.org\/atom\/ns#/.test(text) ? "0.3" : null;
  }
  if (format === "rdf") {
    return /my\.netscape\.com\/rdf\/simple\/0\.9/.test(text) ? "0.90" : "1.0";
  }
  const v = /<(?:[\w-]+:)?rss\b[^>]*\bversion\s*=\s*["']([^"']+)["']/i.exec(text);
  return v ? v[1]!.trim() : null;
}

function parseJsonFeed(text: string, feedUrl: string | null): ParsedFeed {
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

/** Parses RSS 0.9x/2.0, RSS 1.0 (RDF), Atom 0.3/1.0 or JSON Feed bytes into our feed shape, repairing common breakage. */
export function parseFeed(input: ParseFeedInput): ParsedFeed {
  const raw = typeof input.bytes === "string" ? input.bytes : decodeFeedBytes(input.bytes, input.contentType).text;
  const feedUrl = resolveUrl(input.url ?? null, null);
  const trimmed = trimLeadingJunk(raw).trim();
  if (trimmed === "") throw new FeedParseError("NOT_A_FEED", "The document is empty.");
  if (trimmed.startsWith("{")) return parseJsonFeed(trimmed, feedUrl);
  const text = decodeBase64Modes(unprefixRss(trimmed));

  let parsed = tryFeedsmith(text);
  let source = text;
  if (parsed instanceof Error) {
    const repairs = [closeTruncated(text), addChannel(text), addChannel(closeTruncated(text))];
    for (const repaired of repairs) {
      if (!repaired || repaired === text) continue;
      const attempt = tryFeedsmith(repaired);
      if (!(attempt instanceof Error)) {
        parsed = attempt;
        source = repaired;
        break;
      }
    }
  }
  if (parsed instanceof Error) {
    const empty = emptyFeed(text);
    if (empty) return empty;
    const recognised = !(parsed instanceof DetectError && /unrecognized/i.test(parsed.message)) || /<(?:[\w-]+:)?(?:rss|feed|RDF)\b/i.test(text);
    throw recognised
      ? new FeedParseError("MALFORMED_FEED", "The feed could not be read, even after repair.", { cause: parsed })
      : new FeedParseError("NOT_A_FEED", "The document is not an RSS, Atom, RDF or JSON feed.", { cause: parsed });
  }

  const version = detectVersion(parsed.format, source, null);
  switch (parsed.format) {
    case "rss":
      return fromRss(parsed.feed, feedUrl, version);
    case "atom":
      return fromAtom(parsed.feed, feedUrl, version);
    case "rdf":
      return fromRdf(parsed.feed, feedUrl, version);
    case "json":
      return fromJson(parsed.feed, feedUrl, version);
  }
}
