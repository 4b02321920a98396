import { parseFeedDate } from "~/domain/ingestion/feed/parse-date";
import { cleanLine, stripSiteName } from "./clean-text";
import { readJsonLd } from "./json-ld";
import { effectiveBaseUrl, resolveHttpUrl } from "./page-url";

/** What a page says about itself in its markup: Open Graph, Twitter cards, JSON-LD, meta and link tags. */
export type PageMetadata = {
  /** What relative URLs resolve against: <base href>, else the page URL (null when neither is absolute). */
  baseUrl: string | null;
  title: string | null;
  summary: string | null;
  imageUrl: string | null;
  canonicalUrl: string | null;
  publishedAt: string | null;
  siteName: string | null;
};

const TITLE_MAX = 300;
const SUMMARY_MAX = 1000;

const DATE_KEYS = [
  "article:published_time", "og:article:published_time", "og:published_time", "datepublished",
  "date", "pubdate", "publishdate", "publish-date", "dc.date", "dc.date.issued", "dc.date.created",
  "dcterms.date", "dcterms.issued", "dcterms.created", "parsely-pub-date", "sailthru.date",
];

/** Reads the page's own metadata; call it before Readability, which rewrites the document. */
export function readMetadata(document: Document, pageUrl: string): PageMetadata {
  const meta = metaTags(document);
  const jsonLd = readJsonLd(document);
  const baseUrl = readBaseUrl(document, pageUrl);
  const siteName = firstOf([meta.get("og:site_name"), jsonLd?.publisherName, meta.get("application-name")], (v) => cleanLine(v, TITLE_MAX));
  const titleElement = document.head?.querySelector("title") ?? document.querySelector("title");
  const title = firstOf([meta.get("og:title"), meta.get("twitter:title"), jsonLd?.headline, titleElement?.textContent], (v) =>
    cleanTitle(v, siteName),
  );
  const summary = firstOf([meta.get("og:description"), meta.get("twitter:description"), meta.get("description"), jsonLd?.description], (v) =>
    cleanLine(v, SUMMARY_MAX),
  );
  const imageUrl = firstOf(
    [
      meta.get("og:image"), meta.get("og:image:secure_url"), meta.get("og:image:url"),
      meta.get("twitter:image"), meta.get("twitter:image:src"),
      ...(jsonLd?.images ?? []),
      ...linkHrefs(document, "image_src"),
    ],
    (v) => resolveHttpUrl(typeof v === "string" ? v : null, baseUrl),
  );
  const publishedAt =
    firstOf([meta.get(DATE_KEYS[0]!), jsonLd?.datePublished, ...DATE_KEYS.slice(1).map((key) => meta.get(key))], parseMetaDate) ??
    firstOf(timeValues(document.querySelector("article")), parseMetaDate);
  return { baseUrl, title, summary, imageUrl, canonicalUrl: readCanonical(document, baseUrl, meta), publishedAt, siteName };
}

/** The page's canonical URL: <link rel=canonical>, else og:url; absolute http(s) only. */
export function readCanonicalUrl(document: Document, pageUrl: string): string | null {
  return readCanonical(document, readBaseUrl(document, pageUrl), metaTags(document));
}

/** A title as plain text, without a trailing " | Site Name". */
export function cleanTitle(value: unknown, siteName: string | null, max = TITLE_MAX): string | null {
  const line = cleanLine(value, max);
  return line === null ? null : stripSiteName(line, siteName);
}

/** A date from a meta tag, JSON-LD or <time datetime> as ISO 8601 UTC; null unless it is a plausible date. */
export function parseMetaDate(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const text = value.trim();
  let iso: string | null;
  if (/^\d{10}$|^\d{13}$/.test(text)) {
    // Unix time, in seconds or milliseconds, as some CMSs write it.
    iso = new Date(Number(text) * (text.length === 10 ? 1000 : 1)).toISOString();
  } else {
    iso = parseFeedDate(text);
  }
  if (iso === null) return null;
  const year = Number(iso.slice(0, 4));
  return /^\d{4}-/.test(iso) && year >= 1900 && year <= 2100 ? iso : null;
}

/** The <time datetime> values inside an element, in document order. */
export function timeValues(root: Element | null | undefined): string[] {
  if (!root) return [];
  return Array.from(root.querySelectorAll("time[datetime]"), (time) => time.getAttribute("datetime") ?? "");
}

/** Meta tags by lower-cased property, name or itemprop; the first of each wins (og:image may repeat). */
export function metaTags(document: Document): Map<string, string> {
  const tags = new Map<string, string>();
  for (const element of Array.from(document.querySelectorAll("meta"))) {
    const content = element.getAttribute("content") ?? element.getAttribute("value");
    if (content == null || content.trim() === "") continue;
    for (const attribute of ["property", "name", "itemprop"]) {
      const key = element.getAttribute(attribute)?.trim().toLowerCase();
      if (key && !tags.has(key)) tags.set(key, content);
    }
  }
  return tags;
}

function readBaseUrl(document: Document, pageUrl: string): string | null {
  return effectiveBaseUrl(pageUrl, document.querySelector("base[href]")?.getAttribute("href") ?? null);
}

function readCanonical(document: Document, baseUrl: string | null, meta: Map<string, string>): string | null {
  return firstOf([...linkHrefs(document, "canonical"), meta.get("og:url")], (v) => resolveHttpUrl(typeof v === "string" ? v : null, baseUrl));
}

function linkHrefs(document: Document, rel: string): string[] {
  const hrefs: string[] = [];
  for (const link of Array.from(document.querySelectorAll("link[rel][href]"))) {
    const rels = (link.getAttribute("rel") ?? "").toLowerCase().split(/\s+/);
    if (rels.includes(rel)) hrefs.push(link.getAttribute("href") ?? "");
  }
  return hrefs;
}

/** The first candidate that the reader turns into a value. */
export function firstOf<T>(candidates: readonly unknown[], read: (value: unknown) => T | null): T | null {
  for (const candidate of candidates) {
    if (candidate == null) continue;
    const value = read(candidate);
    if (value !== null) return value;
  }
  return null;
}
