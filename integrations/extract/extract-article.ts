import { Readability } from "@mozilla/readability";
import { htmlToText, sanitizeHtml, truncateText } from "~/lib/html";
import { cleanLine } from "./clean-text";
import { parsePage, parseSnippet } from "./html-document";
import { resolveHttpUrl } from "./page-url";
import { dateFromUrl, datelineDate, parseMetaDate, timeValues } from "./published-date";
import { firstOf } from "./first-of";
import { cleanTitle, metaTags, readCanonicalUrl, readMetadata, readTitle, type PageMetadata } from "./read-metadata";

/** An article as extracted from one page: the page's metadata (publishedAt in ISO 8601 UTC) plus its text; every URL is absolute http(s). */
export type ArticleExtraction = Omit<PageMetadata, "baseUrl"> & {
  /** The article's plain text, one line per block; "" when there is none. */
  text: string;
  /** The article's HTML, sanitised; null when there is no article text. */
  contentHtml: string | null;
  textLength: number;
};

const EMPTY: ArticleExtraction = {
  title: null, summary: null, imageUrl: null, canonicalUrl: null, publishedAt: null, siteName: null,
  text: "", contentHtml: null, textLength: 0,
};

const SUMMARY_FROM_TEXT = 300;
const PAGE_TITLE_MAX = 200;
/** The cheap readers look at the start of a page only: the head is there. */
const CHEAP_PREFIX_CHARS = 1_000_000;
/** Images smaller than this on either side (when the page says) are icons, avatars or tracking pixels. */
const MIN_IMAGE_SIDE = 100;

type ReadabilityResult = { title: string | null; excerpt: string | null; siteName: string | null; publishedTime: string | null; content: Element | null };

/** Extracts the article of a page: Readability for the body, the page's own metadata for the rest. Never throws. */
export function extractArticle(html: string, pageUrl: string): ArticleExtraction {
  try {
    const document = parsePage(html);
    // Readability rewrites the document, so the metadata is read first.
    const meta = readMetadata(document, pageUrl);
    const article = runReadability(document);
    const contentHtml = article?.content ? sanitizeHtml(article.content.innerHTML, { baseUrl: meta.baseUrl }) : null;
    const text = contentHtml ? htmlToText(contentHtml) : "";
    const siteName = meta.siteName ?? cleanLine(article?.siteName, 300);
    return {
      title: meta.title ?? cleanTitle(article?.title, { siteName, host: null }),
      summary: meta.summary ?? cleanLine(article?.excerpt, 1000) ?? (text ? truncateText(text.replace(/\n/g, " "), SUMMARY_FROM_TEXT) : null),
      imageUrl: meta.imageUrl ?? firstArticleImage(article?.content, meta.baseUrl),
      canonicalUrl: meta.canonicalUrl,
      // A date in the URL is the last resort: the page's own statements come first.
      publishedAt:
        meta.publishedAt ??
        firstOf([...timeValues(article?.content), article?.publishedTime], parseMetaDate) ??
        datelineDate(text) ??
        firstOf([meta.canonicalUrl, pageUrl], dateFromUrl),
      siteName,
      text,
      contentHtml: text ? contentHtml : null,
      textLength: text.length,
    };
  } catch {
    // Whatever the page, a failed extraction is an empty one: the caller counts it as too short.
    return { ...EMPTY };
  }
}

/** A cheap title for a page (og:title, <title>, else the first <h1>): plain text, at most 200 characters. */
export function extractPageTitle(html: string): string | null {
  try {
    const prefix = typeof html === "string" ? html.slice(0, CHEAP_PREFIX_CHARS) : "";
    const document = parsePage(prefix, { headOnly: true });
    const meta = metaTags(document);
    const siteName = cleanLine(meta.get("og:site_name"), PAGE_TITLE_MAX);
    const title = readTitle(document, [meta.get("og:title")], { siteName, host: null }, PAGE_TITLE_MAX);
    if (title !== null) return title;
    // Only the first <h1> is parsed, not the page around it.
    const lower = prefix.toLowerCase();
    const start = lower.search(/<h1[\s>]/);
    if (start < 0) return null;
    const end = lower.indexOf("</h1", start);
    const snippet = parseSnippet(prefix.slice(start, end < 0 ? start + 10_000 : end + 5));
    return cleanLine(snippet.querySelector("h1")?.textContent, PAGE_TITLE_MAX);
  } catch {
    return null;
  }
}

/** A page's canonical URL (<link rel=canonical>, else og:url), absolute http(s), without running Readability. */
export function extractCanonicalUrl(html: string, pageUrl: string): string | null {
  try {
    const prefix = typeof html === "string" ? html.slice(0, CHEAP_PREFIX_CHARS) : "";
    return readCanonicalUrl(parsePage(prefix, { headOnly: true }), pageUrl);
  } catch {
    return null;
  }
}

function runReadability(document: Document): ReadabilityResult | null {
  if (!document.body?.firstChild) return null;
  const result = new Readability<Element>(document, {
    // We read JSON-LD ourselves; the serializer hands back the element so images and dates can be read from it.
    disableJSONLD: true,
    serializer: (node) => node as Element,
  }).parse();
  if (!result) return null;
  return {
    title: result.title ?? null,
    excerpt: result.excerpt ?? null,
    siteName: result.siteName ?? null,
    publishedTime: result.publishedTime ?? null,
    content: result.content ?? null,
  };
}

function firstArticleImage(content: Element | null | undefined, baseUrl: string | null): string | null {
  if (!content) return null;
  for (const img of Array.from(content.querySelectorAll("img"))) {
    const width = Number(img.getAttribute("width"));
    const height = Number(img.getAttribute("height"));
    if ((width > 0 && width < MIN_IMAGE_SIDE) || (height > 0 && height < MIN_IMAGE_SIDE)) continue;
    const srcset = img.getAttribute("srcset")?.trim().split(/\s+/)[0];
    const url = resolveHttpUrl(img.getAttribute("src"), baseUrl) ?? resolveHttpUrl(srcset, baseUrl);
    if (url) return url;
  }
  return null;
}
