import { httpUrlOrNull } from "~/lib/http-url";
import { escapeXml } from "~/lib/xml";

// Sitemaps (sitemaps.org 0.9), the Google News sitemap and robots.txt, as pure builders, plus the
// XML text helpers the RSS builder shares.

/**
 * The story ids one story sitemap covers: page n lists the published stories with ids in
 * ((n-1)*2,000, n*2,000], at most 2,000 URLs (about 300 KB; sitemaps.org allows 50,000). A full page
 * of 10,000 (1.5 MB) took 125 ms p50 to render at 1,000,000 stories on PostgreSQL and 169 ms at
 * 100,000 on PGlite (`npm run bench:public`), against 30 and 15 ms for a page; the index then lists
 * 500 pages per million ids, one primary-key probe each.
 */
export const STORIES_PER_SITEMAP = 2_000;

const SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9";
const NEWS_NS = "http://www.google.com/schemas/sitemap-news/0.9";
const XML_DECLARATION = `<?xml version="1.0" encoding="UTF-8"?>`;

const DAY_MS = 86_400_000;
/** 0000-01-01T00:00:00Z and 10000-01-01T00:00:00Z: the dates toISOString writes with a four-digit year. */
const FOUR_DIGIT_YEARS_MS = [-62_167_219_200_000, 253_402_300_800_000] as const;
const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * A date as a W3C datetime in UTC to the second, as sitemaps and Google News expect: what
 * `toISOString()` writes, without its milliseconds. Worked out by arithmetic for four-digit years:
 * a story sitemap writes 2,000 of them, and `toISOString()` took a millisecond for those alone.
 */
export function w3cDateTime(date: Date): string {
  const ms = date.getTime();
  if (!(ms >= FOUR_DIGIT_YEARS_MS[0] && ms < FOUR_DIGIT_YEARS_MS[1])) return date.toISOString().replace(/\.\d{3}Z$/, "Z");
  const days = Math.floor(ms / DAY_MS);
  const seconds = Math.floor((ms - days * DAY_MS) / 1000);
  // The civil date of a day count from 1970-01-01, in eras of 400 years (H. Hinnant, "chrono-Compatible
  // Low-Level Date Algorithms", days_from_civil's inverse).
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1_460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const time = `${pad2(Math.floor(seconds / 3_600))}:${pad2(Math.floor(seconds / 60) % 60)}:${pad2(seconds % 60)}`;
  return `${String(year).padStart(4, "0")}-${pad2(month)}-${pad2(day)}T${time}Z`;
}

/** An absolute http(s) URL for `location` (absolute, or a path on the site); null for anything else. */
export function absoluteUrl(siteUrl: string, location: string): string | null {
  return httpUrlOrNull(location, `${siteUrl}/`);
}

/** An element holding escaped text: `<name>text</name>`. */
export function xmlElement(name: string, text: string): string {
  return `<${name}>${escapeXml(text)}</${name}>`;
}

/** An XML document: the declaration, then its root's opening tag, entries and closing tag, a line each. */
function document(open: string, entries: string[], close: string): string {
  return `${XML_DECLARATION}\n${open}\n${entries.length > 0 ? `${entries.join("\n")}\n` : ""}${close}\n`;
}

export type SitemapRef = { loc: string; lastmod?: Date };
export type SitemapUrl = { loc: string; lastmod?: Date };
export type NewsItem = { loc: string; title: string; publishDate: Date };

/** A sitemap index listing the site's sitemap files; relative locations are made absolute. */
export function buildSitemapIndex(input: { siteUrl: string; sitemaps: SitemapRef[] }): string {
  const entries = input.sitemaps.flatMap((s) => {
    const loc = absoluteUrl(input.siteUrl, s.loc);
    if (loc === null) return [];
    const lastmod = s.lastmod ? `\n    ${xmlElement("lastmod", w3cDateTime(s.lastmod))}` : "";
    return [`  <sitemap>\n    ${xmlElement("loc", loc)}${lastmod}\n  </sitemap>`];
  });
  return document(`<sitemapindex xmlns="${SITEMAP_NS}">`, entries, `</sitemapindex>`);
}

/** A sitemap (urlset) of absolute page URLs, each with its last change when known. */
export function buildUrlset(input: { urls: SitemapUrl[] }): string {
  const entries = input.urls.map((u) => {
    // A datetime needs no escaping.
    const lastmod = u.lastmod ? `\n    <lastmod>${w3cDateTime(u.lastmod)}</lastmod>` : "";
    return `  <url>\n    ${xmlElement("loc", u.loc)}${lastmod}\n  </url>`;
  });
  return document(`<urlset xmlns="${SITEMAP_NS}">`, entries, `</urlset>`);
}

/** A Google News sitemap: recent articles with the publication's name and language. */
export function buildNewsSitemap(input: {
  siteUrl: string;
  publicationName: string;
  language: string;
  items: NewsItem[];
}): string {
  const entries = input.items.flatMap((item) => {
    const loc = absoluteUrl(input.siteUrl, item.loc);
    if (loc === null) return [];
    return [
      [
        `  <url>`,
        `    ${xmlElement("loc", loc)}`,
        `    <news:news>`,
        `      <news:publication>`,
        `        ${xmlElement("news:name", input.publicationName)}`,
        `        ${xmlElement("news:language", input.language)}`,
        `      </news:publication>`,
        `      ${xmlElement("news:publication_date", w3cDateTime(item.publishDate))}`,
        `      ${xmlElement("news:title", item.title)}`,
        `    </news:news>`,
        `  </url>`,
      ].join("\n"),
    ];
  });
  return document(`<urlset xmlns="${SITEMAP_NS}" xmlns:news="${NEWS_NS}">`, entries, `</urlset>`);
}

/** robots.txt: crawlers may read the public site, not the admin area or the API, and find the sitemap. */
export function buildRobotsTxt(input: { siteUrl: string }): string {
  return ["User-agent: *", "Allow: /", "Disallow: /admin", "Disallow: /api/", "", `Sitemap: ${input.siteUrl}/sitemap.xml`, ""].join("\n");
}
