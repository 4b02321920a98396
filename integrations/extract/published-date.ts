import { parseFeedDate } from "~/lib/parse-date";
import { firstOf } from "./first-of";

/**
 * When a page says it was published, from the most to the least trusted statement:
 * 1. JSON-LD datePublished of the article (read by json-ld.ts, passed in);
 * 2. <meta property="article:published_time">;
 * 3. itemprop="datePublished" (a meta's content, a <time>'s datetime, or the element's text);
 * 4. a <time datetime> with a pubdate attribute, or a class naming publication, the first one inside
 *    <article>, or one whose class names a date;
 * 5. other date metas: the common names first, then any name that speaks of publishing;
 * 6. the text of a short element whose class or id names a date or publication ("Posted March 3, 2015");
 * and, as the last resort (the caller's), a date in the URL's path (dateFromUrl).
 */
export type DateSources = { jsonLdDate: string | null; meta: Map<string, string> };

// Names seen in the wild, most common first; keys are lower-cased.
const DATE_META_KEYS = [
  "og:article:published_time", "article:published", "article.published", "published_time", "og:published_time",
  "pubdate", "publishdate", "publish-date", "publish_date", "date", "dc.date", "dc.date.issued", "dc.date.created",
  "dcterms.date", "dcterms.issued", "dcterms.created", "sailthru.date", "parsely-pub-date",
  "cxenseparse:recs:publishtime", "article_date_original", "date_published", "originalpublicationdate",
];
const PUBLISH_KEY = /publish|pub[-_.]?date|publication/;
const NOT_PUBLISHED = /modif|updat|expir|revis|embargo/;
// Words of a class or id that name a date ("post-date", "buzz_datetime", "topAttributionWithDate").
const DATE_WORDS = new Set(["date", "dates", "dateline", "datetime", "datestamp", "timestamp", "posted", "publish", "published", "pubdate", "postdate"]);
const MAX_DATE_TEXT = 120;
const MAX_TEXT_CANDIDATES = 50;

/** The page's own statement of when it was published, as ISO 8601 UTC; null when it makes none we can read. */
export function readPublishedDate(document: Document, { jsonLdDate, meta }: DateSources): string | null {
  const structured = firstOf([
    jsonLdDate,
    meta.get("article:published_time"),
    meta.get("datepublished"),
    ...itempropDates(document),
    ...timeDates(document),
    ...DATE_META_KEYS.map((key) => meta.get(key)),
    ...publishMetaValues(meta),
  ], parseMetaDate);
  return structured ?? firstOf(dateTexts(document), parseTextDate);
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
    // Written out too ("June 7, 2013"), as some CMSs fill their date metas.
    iso = parseFeedDate(text) ?? parseNumericDate(text) ?? parseTextDate(text);
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

const URL_DATE = [
  // /2026/11/23/ (the day may end the path)
  /\/((?:19|20|21)\d{2})\/(\d{1,2})\/(\d{1,2})(?=\/|$)/,
  // /2026/world/11/23/ (a section between the year and the month)
  /\/((?:19|20|21)\d{2})\/[a-z][a-z_-]{1,30}\/(\d{1,2})\/(\d{1,2})(?=\/)/i,
  // /2026-11-23/ or /2026-11-23-slug
  /\/((?:19|20|21)\d{2})-(\d{2})-(\d{2})(?=[/_.-]|$)/,
  // /20261123/
  /\/((?:19|20|21)\d{2})(\d{2})(\d{2})(?=\/|$)/,
];

/** A publication day written in a URL's path (/2026/11/23/, /2026-11-23/, /20261123/), as midnight UTC; null when none. */
export function dateFromUrl(url: unknown): string | null {
  if (typeof url !== "string" || url === "") return null;
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return null;
  }
  for (const form of URL_DATE) {
    const m = form.exec(path);
    if (!m) continue;
    const iso = calendarDay(Number(m[1]), Number(m[2]), Number(m[3]));
    if (iso && Number(m[1]) >= 1990 && Number(m[1]) <= 2100) return iso;
  }
  return null;
}

const MONTHS: Record<string, number> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12,
};
const MONTH =
  "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\b\\.?";
// A day, a dash, and another day or a month: "12—14, 2011", "31st—November 1st".
const DATE_SPAN = new RegExp(`(?<!\\d)\\d{1,2}(?:st|nd|rd|th)?\\s*[–—]\\s*(?:\\d{1,2}(?!\\d)|${MONTH})`, "i");
const MONTH_NAMES = new RegExp(`\\b${MONTH}`, "gi");
const TEXT_DATES: { form: RegExp; parts: (m: RegExpExecArray) => [number, number | undefined, number] }[] = [
  // March 3, 2015 / Mar. 3rd 2015
  { form: new RegExp(`\\b${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, "i"), parts: (m) => [Number(m[3]), MONTHS[m[1]!.slice(0, 3).toLowerCase()], Number(m[2])] },
  // 3 March 2015 / 3rd of March, 2015
  { form: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?${MONTH},?\\s+(\\d{4})\\b`, "i"), parts: (m) => [Number(m[3]), MONTHS[m[2]!.slice(0, 3).toLowerCase()], Number(m[1])] },
  // 2015-03-03
  { form: /\b(\d{4})-(\d{2})-(\d{2})\b/, parts: (m) => [Number(m[1]), Number(m[2]), Number(m[3])] },
];

/**
 * The date of a news dateline opening an article's text: "Feb. 23, 2015 -- ...", "WASHINGTON, March 3,
 * 2015 — ..." (a date, after at most a place name, then a dash); null when the text does not open so.
 */
export function datelineDate(text: string): string | null {
  const opening = /^(?:\p{Lu}[\p{L}.' -]{1,40},\s+)?([^\n]{6,40}?)\s*(?:--|—|–|-)\s/u.exec(text.trimStart());
  return opening ? parseTextDate(opening[1]) : null;
}

// Months named with a capital, as dates write them ("may" in a sentence is not one).
function namedMonths(text: string): number {
  return new Set((text.match(MONTH_NAMES) ?? []).filter((m) => /^\p{Lu}/u.test(m)).map((m) => m.slice(0, 3).toLowerCase())).size;
}

/** A calendar date written out in a short text ("Posted on March 3, 2015 at 9:00"), as midnight UTC; numeric forms only when unambiguous. */
export function parseTextDate(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const text = value.replace(/\s+/g, " ").trim();
  if (text === "" || text.length > MAX_DATE_TEXT) return null;
  // A span of days ("October 31st—November 1st, 2011") dates an event, not the page.
  if (DATE_SPAN.test(text) || namedMonths(text) > 1) return null;
  for (const { form, parts } of TEXT_DATES) {
    const m = form.exec(text);
    if (!m) continue;
    const [year, month, day] = parts(m);
    const iso = month === undefined ? null : calendarDay(year, month, day);
    if (iso) return iso;
  }
  const numeric = /\b(\d{1,2})([/.])(\d{1,2})\2(\d{4})\b/.exec(text);
  return numeric ? parseNumericDate(numeric[0]) : null;
}

/**
 * "05/29/2007 09:49:00", "29.05.2007": day and month in either order, read only when one order is
 * impossible (a number over 12) or the separator is a dot (day first, the European convention).
 */
function parseNumericDate(text: string): string | null {
  const m = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{4})(?:[ T]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(text);
  if (!m) return null;
  const a = Number(m[1]);
  const b = Number(m[3]);
  let day: number;
  let month: number;
  if (m[2] === ".") [day, month] = [a, b];
  else if (a > 12 && b <= 12) [day, month] = [a, b];
  else if (b > 12 && a <= 12) [day, month] = [b, a];
  else return null;
  const date = calendarDay(Number(m[4]), month, day);
  if (!date || m[5] === undefined) return date;
  const hour = Number(m[5]);
  const minute = Number(m[6]);
  const second = Number(m[7] ?? 0);
  if (hour > 23 || minute > 59 || second > 59) return null;
  return new Date(Date.parse(date) + ((hour * 60 + minute) * 60 + second) * 1000).toISOString();
}

function calendarDay(year: number, month: number, day: number): string | null {
  if (!(month >= 1 && month <= 12 && day >= 1 && day <= 31)) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString();
}

function itempropDates(document: Document): string[] {
  const values: string[] = [];
  for (const element of Array.from(document.querySelectorAll("[itemprop]"))) {
    const props = (element.getAttribute("itemprop") ?? "").toLowerCase().split(/\s+/);
    if (!props.includes("datepublished")) continue;
    values.push(element.getAttribute("datetime") ?? element.getAttribute("content") ?? element.textContent ?? "");
  }
  return values;
}

function timeDates(document: Document): string[] {
  const times = Array.from(document.querySelectorAll("time[datetime]"));
  const classOf = (time: Element) => time.getAttribute("class") ?? "";
  const datetime = (time: Element) => time.getAttribute("datetime") ?? "";
  return [
    ...times.filter((time) => time.hasAttribute("pubdate")).map(datetime),
    ...times.filter((time) => /publish/i.test(classOf(time)) && !NOT_PUBLISHED.test(classOf(time).toLowerCase())).map(datetime),
    ...timeValues(document.querySelector("article")).slice(0, 1),
    ...times.filter((time) => namesDate(classOf(time))).map(datetime),
  ];
}

function publishMetaValues(meta: Map<string, string>): string[] {
  const values: string[] = [];
  for (const [key, value] of meta) {
    if (PUBLISH_KEY.test(key) && !NOT_PUBLISHED.test(key) && !DATE_META_KEYS.includes(key)) values.push(value);
  }
  return values;
}

/** Short texts of elements whose class or id names a date or publication, in document order. */
function dateTexts(document: Document): string[] {
  const texts: string[] = [];
  for (const element of Array.from(document.body?.querySelectorAll("[class], [id]") ?? [])) {
    if (!namesDate(element.getAttribute("class") ?? "") && !namesDate(element.getAttribute("id") ?? "")) continue;
    const text = element.textContent ?? "";
    if (text.length > MAX_DATE_TEXT * 4) continue;
    texts.push(text);
    if (texts.length >= MAX_TEXT_CANDIDATES) break;
  }
  return texts;
}

/** Whether class or id names speak of a publication date, and not of an update. */
function namesDate(names: string): boolean {
  const words = names
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[\s_-]+/);
  return words.some((word) => DATE_WORDS.has(word)) && !words.some((word) => NOT_PUBLISHED.test(word));
}
