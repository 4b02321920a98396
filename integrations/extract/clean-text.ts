import { decodeHTMLStrict } from "entities";
import { htmlToText, truncateText } from "~/lib/html";

const ENTITY = /&(?:#\d{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});/i;
const TAG = /<\/?[a-z!][^<>]*>/i;

/**
 * One line of plain text from a metadata value: tags dropped, entities decoded (values that were
 * escaped twice too, as many sites do in og: tags and JSON-LD), whitespace collapsed; null when empty.
 */
export function cleanLine(value: unknown, max = 1000): string | null {
  if (typeof value !== "string") return null;
  let text = value;
  if (TAG.test(text)) text = htmlToText(text);
  for (let i = 0; i < 2 && ENTITY.test(text); i++) text = decodeHTMLStrict(text);
  text = text.replace(/(?:\s|\u200b|\u200c|\u200d)+/g, " ").trim();
  if (text === "") return null;
  return truncateText(text, max);
}

/** What names the site a page belongs to: its og:site_name (or publisher) and its host. */
export type SiteNames = { siteName: string | null; host: string | null };

// Separators a site's name is tacked on with; only these, with a space on each side, so "Jean-Luc" is never cut.
const SEPARATORS = ["|", "-", "–", "—", "·", "•", "::", ":", "/", "»", "«"];
// Where the site's name is not known, only these mark a suffix that may be the site's name.
const GUESS_SEPARATORS = new Set(["|", "-", "–", "—", "·", "•", "::", "»"]);
const MAX_SITE_WORDS = 4;
const MIN_HEADLINE_WORDS = 4;
const SECOND_LEVEL = new Set(["com", "co", "org", "net", "gov", "ac", "edu", "ne", "or", "go"]);

/**
 * A title without the site's name tacked on after a separator ("Title | Site", "Title - site.com",
 * "Title [Site]"). The suffix goes when it names the site (og:site_name, or the host) or, with
 * `guess`, when it looks like a name (at most four capitalised words) after a headline of at least
 * four words; at most two suffixes go ("Title | Section | Site"). A title is never cut to nothing.
 */
export function stripSiteName(title: string, names: SiteNames, options: { guess?: boolean } = {}): string {
  let result = title;
  for (let round = 0; round < 2; round++) {
    const next = stripOnce(result, names, options.guess === true);
    if (next === result) break;
    result = next;
  }
  return result;
}

function stripOnce(title: string, names: SiteNames, guess: boolean): string {
  const site = names.siteName?.toLowerCase() ?? null;
  const lower = title.toLowerCase();
  if (site) {
    for (const sep of SEPARATORS) {
      const suffix = ` ${sep} ${site}`;
      if (lower.endsWith(suffix) && hasWords(title.slice(0, title.length - suffix.length))) return title.slice(0, title.length - suffix.length).trim();
      // Some sites put their name first ("Site | Headline").
      const prefix = `${site} ${sep} `;
      if (lower.startsWith(prefix) && wordCount(title.slice(prefix.length)) >= MIN_HEADLINE_WORDS) return title.slice(prefix.length).trim();
    }
  }
  const bracketed = /\s[[(]([^[\]()]{1,60})[\])]$/.exec(title);
  if (bracketed && namesSite(bracketed[1]!, names) && hasWords(title.slice(0, bracketed.index))) return title.slice(0, bracketed.index).trim();
  const last = lastSeparator(title);
  if (!last) return title;
  const head = title.slice(0, last.index).trim();
  const suffix = title.slice(last.index + last.sep.length + 2).trim();
  if (!hasWords(head) || suffix === "") return title;
  if (namesSite(suffix, names)) return head;
  if (guess && GUESS_SEPARATORS.has(last.sep) && looksLikeName(suffix) && wordCount(head) >= MIN_HEADLINE_WORDS && head.length > suffix.length) return head;
  return title;
}

function lastSeparator(title: string): { index: number; sep: string } | null {
  let best: { index: number; sep: string } | null = null;
  for (const sep of SEPARATORS) {
    const index = title.lastIndexOf(` ${sep} `);
    if (index > 0 && (!best || index > best.index)) best = { index, sep };
  }
  return best;
}

/** Whether a suffix is the site's name or its host ("Ars Technica" on arstechnica.com, "TMZ.com", "LWN.net"). */
function namesSite(suffix: string, { siteName, host }: SiteNames): boolean {
  const key = compact(suffix);
  if (key === "") return false;
  if (siteName && compact(siteName) === key) return true;
  return host !== null && hostKeys(host).includes(key);
}

function hostKeys(host: string): string[] {
  const labels = host.toLowerCase().replace(/^www\d?\./, "").split(".").filter(Boolean);
  if (labels.length < 2) return labels;
  const keys = [labels.join(""), labels.slice(0, -1).join("")];
  if (labels.length > 2 && SECOND_LEVEL.has(labels[labels.length - 2]!)) keys.push(labels.slice(0, -2).join(""));
  return keys;
}

function compact(text: string): string {
  return text.toLowerCase().replace(/^the\s+/, "").replace(/[^\p{L}\p{N}]+/gu, "");
}

/** A short run of capitalised words ("Code", "The Parish Post", "BuzzFeed News"), not a phrase ("for now", "Really?"). */
function looksLikeName(text: string): boolean {
  const words = text.split(/\s+/);
  if (words.length > MAX_SITE_WORDS || /[?!]$/.test(text)) return false;
  return words.every((word) => /^[\p{Lu}\p{N}]/u.test(word) || !/\p{L}/u.test(word));
}

function hasWords(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text);
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}
