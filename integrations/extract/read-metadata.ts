import { cleanLine, type SiteNames, stripSiteName } from "./clean-text";
import { firstOf } from "./first-of";
import { readJsonLd } from "./json-ld";
import { effectiveBaseUrl, resolveHttpUrl } from "./page-url";
import { readPublishedDate } from "./published-date";

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
// What may follow the headline in a <title>: a separator and more (" | Site", " - Author").
// The suffix starts like a name does: "Hedge stays - for now" is one headline.
const HEADLINE_SUFFIX = /^\s+(?:[|\-–—·•»:/]|::)\s+[\p{Lu}\p{N}]/u;
const SUMMARY_MAX = 1000;

/** Reads the page's own metadata; call it before Readability, which rewrites the document. */
export function readMetadata(document: Document, pageUrl: string): PageMetadata {
  const meta = metaTags(document);
  const jsonLd = readJsonLd(document);
  const baseUrl = readBaseUrl(document, pageUrl);
  const siteName = firstOf([meta.get("og:site_name"), jsonLd?.publisherName, meta.get("application-name")], (v) => cleanLine(v, TITLE_MAX));
  const canonicalUrl = readCanonical(document, baseUrl, meta);
  const title = readTitle(document, [meta.get("og:title"), meta.get("twitter:title"), jsonLd?.headline], {
    siteName,
    host: hostOf(canonicalUrl) ?? hostOf(pageUrl),
  });
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
    (v) => resolveMarkupUrl(v, baseUrl),
  );
  const publishedAt = readPublishedDate(document, { jsonLdDate: jsonLd?.datePublished ?? null, meta });
  return { baseUrl, title, summary, imageUrl, canonicalUrl, publishedAt, siteName };
}

/** The page's canonical URL: <link rel=canonical>, else og:url; absolute http(s) only. */
export function readCanonicalUrl(document: Document, pageUrl: string): string | null {
  return readCanonical(document, readBaseUrl(document, pageUrl), metaTags(document));
}

/** A title as plain text, without a trailing " | Site Name" (see stripSiteName; `guess` only for a bare <title>). */
export function cleanTitle(value: unknown, names: SiteNames, options: { guess?: boolean; max?: number } = {}): string | null {
  const line = cleanLine(value, options.max ?? TITLE_MAX);
  return line === null ? null : stripSiteName(line, names, { guess: options.guess });
}

/**
 * The page's title: the first of its declared titles (og:title, twitter:title, JSON-LD headline),
 * else its <title>. A <title> (or a declared title that only repeats it) is read as a bare <title>:
 * the page's own <h1> when the <title> is that headline plus a suffix, else the <title> with a
 * suffix that looks like the site's name dropped.
 */
export function readTitle(document: Document, declared: readonly unknown[], names: SiteNames, max = TITLE_MAX): string | null {
  const titleElement = document.head?.querySelector("title") ?? document.querySelector("title");
  const pageTitle = cleanLine(titleElement?.textContent, max);
  for (const value of declared) {
    const line = cleanLine(value, max);
    if (line === null) continue;
    if (line === pageTitle) break;
    const declaredTitle = stripSiteName(line, names);
    return shorterHeadline(declaredTitle, pageTitle) ?? declaredTitle;
  }
  if (pageTitle === null) return null;
  return headlineOf(document, pageTitle, max) ?? stripSiteName(pageTitle, names, { guess: true });
}

/** The page's <h1> (or its article's first heading) when the <title> is that headline followed by a separator and a name. */
function headlineOf(document: Document, pageTitle: string, max: number): string | null {
  const headings = [...Array.from(document.querySelectorAll("h1")).slice(0, 5), document.querySelector("article h1, article h2")];
  for (const heading of headings) {
    const text = cleanLine(heading?.textContent, max);
    if (text === null || text.length >= pageTitle.length) continue;
    if (pageTitle.startsWith(text) && HEADLINE_SUFFIX.test(pageTitle.slice(text.length)) && /[\p{L}\p{N}]/u.test(text)) return text;
  }
  return null;
}

/**
 * The headline inside a declared title that adds more after a separator ("Headline • Author"): the
 * page's own <title> when it is exactly the part before. (An <h1> alone does not decide it: og:title
 * may go on from the <h1> as a phrase, "Hedge stays - For Now".)
 */
function shorterHeadline(declared: string, pageTitle: string | null): string | null {
  if (pageTitle === null || pageTitle.length >= declared.length || !/[\p{L}\p{N}]/u.test(pageTitle)) return null;
  return declared.startsWith(pageTitle) && HEADLINE_SUFFIX.test(declared.slice(pageTitle.length)) ? pageTitle : null;
}

/** Meta tags by lower-cased property, name or itemprop; the first of each wins (og:image may repeat). */
export function metaTags(document: Document): Map<string, string> {
  const tags = new Map<string, string>();
  for (const [key, content] of metaEntries(document)) if (!tags.has(key)) tags.set(key, content);
  return tags;
}

/** Every non-empty meta tag as [lower-cased property, name or itemprop, content], in document order (repeats kept). */
export function metaEntries(document: Document): [key: string, content: string][] {
  const entries: [string, string][] = [];
  for (const element of Array.from(document.querySelectorAll("meta"))) {
    const content = element.getAttribute("content") ?? element.getAttribute("value");
    if (content == null || content.trim() === "") continue;
    for (const attribute of ["property", "name", "itemprop"]) {
      const key = element.getAttribute(attribute)?.trim().toLowerCase();
      if (key) entries.push([key, content]);
    }
  }
  return entries;
}

/** A URL from markup: resolved, http(s) only; an ampersand escaped twice ("&amp;amp;") is read as one. */
export function resolveMarkupUrl(value: unknown, baseUrl: string | null): string | null {
  if (typeof value !== "string") return null;
  return resolveHttpUrl(value.replace(/&(?:amp|#0*38|#x0*26);/gi, "&"), baseUrl);
}

function hostOf(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname || null;
  } catch {
    return null;
  }
}

/** What the page's relative URLs resolve against: its <base href>, else the page URL. */
export function readBaseUrl(document: Document, pageUrl: string): string | null {
  return effectiveBaseUrl(pageUrl, document.querySelector("base[href]")?.getAttribute("href") ?? null);
}

function readCanonical(document: Document, baseUrl: string | null, meta: Map<string, string>): string | null {
  return firstOf([...linkHrefs(document, "canonical"), meta.get("og:url")], (v) => resolveMarkupUrl(withoutScheme(v, baseUrl), baseUrl));
}

// "www.site.example/path" is the page's own host (with or without www.) written without its scheme, not a relative path.
function withoutScheme(value: unknown, baseUrl: string | null): unknown {
  const host = hostOf(baseUrl);
  if (typeof value !== "string" || !host) return value;
  const text = value.trim();
  const bare = (name: string) => name.toLowerCase().replace(/^www\./, "");
  const first = text.split("/")[0]!;
  return /^[a-z0-9-]+(?:\.[a-z0-9-]+)+\//i.test(text) && bare(first) === bare(host) ? `//${text}` : value;
}

/** The hrefs of the page's <link> elements with this rel, as written, in document order. */
export function linkHrefs(document: Document, rel: string): string[] {
  const hrefs: string[] = [];
  for (const link of Array.from(document.querySelectorAll("link[rel][href]"))) {
    const rels = (link.getAttribute("rel") ?? "").toLowerCase().split(/\s+/);
    if (rels.includes(rel)) hrefs.push(link.getAttribute("href") ?? "");
  }
  return hrefs;
}
