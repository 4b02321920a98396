import { type AnyFeed, type AtomFeed, type MediaNs, parseFeed as feedsmithParse } from "feedsmith";
import { htmlToText, sanitizeHtml } from "~/lib/html";
import { httpUrlOrNull } from "~/lib/http-url";
import { parseFeedDate } from "~/lib/parse-date";

// Helpers the format mappings share: URLs, text and HTML, images, dates.

type Media = MediaNs.ItemOrFeed;


/** A base URL for resolving: any absolute URL (http, https, or a urn the feed author meant as base). */
export function resolveBase(value: string | null | undefined, base: string | null): string | null {
  if (!value) return base;
  try {
    return base ? new URL(value.trim(), base).href : new URL(value.trim()).href;
  } catch {
    return base;
  }
}

const HTML_HINT =
  /<\/?(?:a|abbr|acronym|address|b|big|blockquote|br|center|cite|code|dd|del|div|dl|dt|em|font|h[1-6]|hr|i|img|ins|kbd|li|ol|p|pre|q|s|small|span|strike|strong|sub|sup|table|tbody|td|th|thead|tr|tt|u|ul|iframe|script|style|object|embed|figure|figcaption|section|article)\b[^>]*>|&(?:#\d+|#x[\da-f]+|[a-z][a-z\d]+);/i;
export const HTML_TAG = /<\/?[a-z][a-z\d]*\b[^>]*>/i;

function collapse(value: string): string {
  return value.replace(/[\s\u00a0]+/g, " ").trim();
}

export function orNull(value: string | null | undefined): string | null {
  return value == null || value === "" ? null : value;
}

/** Plain text of a value that is HTML when it looks like HTML (RSS leaves the type unsaid). */
export function textOf(value: string | null | undefined, kind: "html" | "text" | "guess" = "guess"): string | null {
  if (value == null) return null;
  const html = kind === "html" || (kind === "guess" && HTML_HINT.test(value));
  return orNull(html ? collapse(htmlToText(value)) : collapse(value));
}

/** Multi-line plain text for summaries: one line per block. */
export function summaryOf(value: string | null | undefined, kind: "html" | "text"): string | null {
  if (value == null) return null;
  return orNull(kind === "html" ? htmlToText(value) : value.replace(/[ \t\u00a0]+/g, " ").replace(/\s*\n\s*/g, "\n").trim());
}

export function escapeHtml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function contentOf(value: string | null | undefined, kind: "html" | "text", base: string | null): string | null {
  if (value == null || value.trim() === "") return null;
  const html = kind === "html" ? sanitizeHtml(value, { baseUrl: base }) : escapeHtml(value.trim());
  return orNull(html.trim());
}

export const IMAGE_EXT = /\.(?:jpe?g|png|gif|webp|avif|bmp|svg)(?:$|[?#])/i;

export function firstImage(html: string | null): string | null {
  if (!html) return null;
  const match = /<img\b[^>]*?\bsrc="([^"]+)"/i.exec(html);
  return match ? match[1]!.replace(/&amp;/g, "&") : null;
}

export function mediaImage(media: Media | undefined, base: string | null): string | null {
  if (!media) return null;
  const isImage = (c: MediaNs.Content): boolean =>
    c.medium === "image" || (c.type ?? "").toLowerCase().startsWith("image/") || (!c.medium && !c.type && IMAGE_EXT.test(c.url ?? ""));
  const fromContents = (contents: MediaNs.Content[] | undefined): string | null => {
    for (const c of contents ?? []) {
      if (isImage(c)) {
        const url = httpUrlOrNull(c.url, base);
        if (url) return url;
      }
    }
    for (const c of contents ?? []) {
      for (const t of c.thumbnails ?? []) {
        const url = httpUrlOrNull(t.url, base);
        if (url) return url;
      }
    }
    return null;
  };
  const fromThumbs = (thumbs: MediaNs.Thumbnail[] | undefined): string | null => {
    for (const t of thumbs ?? []) {
      const url = httpUrlOrNull(t.url, base);
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

export function firstDate(...values: (string | null | undefined | (string | null | undefined)[])[]): string | null {
  for (const v of values.flat()) {
    const parsed = parseFeedDate(v ?? null);
    if (parsed) return parsed;
  }
  return null;
}

export function alternateLink(links: AtomFeed.Link<string>[] | undefined, base: string | null): string | null {
  const candidates = (links ?? []).filter((l) => !l.rel || l.rel === "alternate");
  const preferred = candidates.find((l) => !l.type || l.type.includes("html")) ?? candidates[0];
  for (const link of preferred ? [preferred, ...candidates] : []) {
    const url = httpUrlOrNull(link.href, base);
    if (url) return url;
  }
  return null;
}

export function mediaDescription(media: Media | undefined): string | undefined {
  return media?.description?.value ?? media?.groups?.find((g) => g.description)?.description?.value;
}

/**
 * Relative item links resolve against xml:base when the feed sets one, else against the site URL
 * (a feed often lives on another host than its articles, as miniflux found), else the feed URL.
 */
export function itemBase(xmlBase: string | undefined, base: string | null, siteUrl: string | null): string | null {
  return xmlBase ? base : (siteUrl ?? base);
}

export function tryFeedsmith(text: string): AnyFeed | Error {
  try {
    return feedsmithParse(text);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}
