import type { AtomFeed } from "feedsmith";
import { httpUrlOrNull, isHttpUrl } from "~/lib/http-url";
import type { FeedItem, ParsedFeed } from "./types";
import { alternateLink, contentOf, firstDate, firstImage, HTML_TAG, itemBase, mediaDescription, mediaImage, orNull, resolveBase, summaryOf, textOf } from "./values";

// Atom 0.3 and 1.0 to our shape.

type Atom = AtomFeed.Feed<string>;
type AtomEntry = AtomFeed.Entry<string>;
type AtomText = AtomFeed.Text;

function atomKind(type: string | undefined): "html" | "text" {
  if (!type) return "text";
  const t = type.toLowerCase();
  return t === "html" || t === "xhtml" || t.includes("html") ? "html" : "text";
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
    link: alternateLink(entry.links, base) ?? (isHttpUrl(entry.id) ? httpUrlOrNull(entry.id, null) : null),
    guid: orNull(entry.id?.trim()),
    publishedAt: firstDate(entry.published, entry.dc?.dates, entry.updated, entry.dcterms?.issued, entry.dcterms?.modified),
    summary:
      summaryOf(summaryText?.value, summaryKind) ??
      (content?.src ? null : summaryOf(content?.value, contentKind)) ??
      summaryOf(entry.itunes?.summary ?? entry.itunes?.subtitle ?? mediaDescription(entry.media), "html"),
    contentHtml,
    imageUrl: mediaImage(entry.media, base) ?? httpUrlOrNull(entry.itunes?.image, base) ?? httpUrlOrNull(firstImage(contentHtml), base),
  };
}

/** An Atom feed in our shape. */
export function fromAtom(feed: Atom, feedUrl: string | null, version: string | null): ParsedFeed {
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
