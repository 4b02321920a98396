/**
 * robots.txt per RFC 9309, over robots-parser. robots-parser groups the records, merges groups, and
 * picks the longest match (Allow on a tie, `*` and `$`); this module gives it records it reads the
 * RFC's way: every line split here (lines without a colon, common typos, product tokens cut to their
 * first word, other records that do not end a group), every path and URL put in one percent-encoded
 * form, and Crawl-delay and Sitemap read here.
 */
import robotsParser from "robots-parser";
import { decodeBytes } from "~/lib/decode-bytes";
import { httpUrlOrNull, isHttpProtocol } from "~/lib/http-url";

/** RFC 9309 asks crawlers to parse at least 500 KiB; text beyond this is ignored. */
export const ROBOTS_MAX_BYTES = 512 * 1024;

export type RobotsRules = {
  /**
   * Whether the crawler may fetch an absolute URL. A URL on another origin than the robots.txt (or
   * one that does not parse) is never allowed: these rules say nothing about it, so the caller must
   * fetch that origin's own robots.txt. `/robots.txt` itself is always allowed.
   */
  isAllowed(url: string, userAgent: string): boolean;
  /** The Crawl-delay of the agent's group (or of the `*` group when the agent has none), as written; null when absent. */
  crawlDelaySeconds(userAgent: string): number | null;
  /** Absolute http(s) Sitemap: URLs, in file order, each once. */
  sitemaps: string[];
};

type Directive = { key: "user-agent" | "allow" | "disallow" | "crawl-delay" | "sitemap"; value: string };

// Misspellings that Google's and crawler-commons' parsers accept: whoever wrote them meant the directive.
const KEYS = new Map<string, Directive["key"]>([
  ["user-agent", "user-agent"],
  ["useragent", "user-agent"],
  ["user agent", "user-agent"],
  ["useg-agent", "user-agent"],
  ["allow", "allow"],
  ["disallow", "disallow"],
  ["dissallow", "disallow"],
  ["dissalow", "disallow"],
  ["disalow", "disallow"],
  ["diasllow", "disallow"],
  ["disallaw", "disallow"],
  ["desallow", "disallow"],
  ["dssalow", "disallow"],
  ["dsallow", "disallow"],
  ["crawl-delay", "crawl-delay"],
  ["crawl delay", "crawl-delay"],
  ["crawldelay", "crawl-delay"],
  ["sitemap", "sitemap"],
  ["site-map", "sitemap"],
]);

// A group line whose value has no product token: it still opens a group, one no crawler matches.
const NO_AGENT = ".";

/** Parses a robots.txt body fetched from `robotsUrl` (an absolute http(s) URL). */
export function parseRobots(robotsUrl: string, body: string | Buffer): RobotsRules {
  const base = new URL(robotsUrl);
  if (!isHttpProtocol(base)) throw new TypeError(`robots.txt URL is not http(s): ${robotsUrl}`);
  const origin = base.origin;

  const lines: string[] = [];
  const groups = new Set<string>();
  const delays = new Map<string, number>();
  const sitemaps = new Set<string>();
  let agents: string[] = [];
  let inAgentLines = false;

  for (const { key, value } of directives(readText(body))) {
    if (key === "user-agent") {
      const agent = value.startsWith("*") && !/^\*\S/.test(value) ? "*" : (productToken(value) ?? NO_AGENT);
      if (!inAgentLines) agents = [];
      agents.push(agent);
      groups.add(agent);
      inAgentLines = true;
      lines.push(`user-agent: ${agent}`);
    } else if (key === "allow" || key === "disallow") {
      inAgentLines = false;
      lines.push(`${key}: ${canonicalPath(value)}`);
      // As Google does: allowing a directory's index page allows the directory itself (`/d/` is
      // `/d/index.html` on a web server), and only that URL, so nothing else opens up.
      const index = key === "allow" ? INDEX_PAGE.exec(value) : null;
      if (index) lines.push(`allow: ${canonicalPath(index[1]!)}$`);
    } else if (key === "crawl-delay") {
      // Not a rule: it belongs to the agents named so far and does not end their group.
      const seconds = Number(value);
      if (value === "" || !Number.isFinite(seconds) || seconds < 0) continue;
      for (const agent of agents) if (!delays.has(agent)) delays.set(agent, seconds);
    } else {
      const url = httpUrlOrNull(value, base.href);
      if (url) sitemaps.add(url);
    }
  }
  // An agent group with no rules still matches its agents (who may then fetch everything).
  if (inAgentLines) lines.push("disallow:");

  const parser = robotsParser(`${origin}/robots.txt`, lines.join("\n"));
  const groupFor = (userAgent: string) => {
    const token = productToken(userAgent);
    return token !== null && groups.has(token) ? token : "*";
  };

  return {
    isAllowed(url, userAgent) {
      const target = parseUrl(url);
      if (!target || target.origin !== origin) return false;
      if (target.pathname === "/robots.txt") return true;
      return parser.isAllowed(origin + canonicalPath(target.pathname + target.search), groupFor(userAgent)) === true;
    },
    crawlDelaySeconds(userAgent) {
      return delays.get(groupFor(userAgent)) ?? null;
    },
    sitemaps: [...sitemaps],
  };
}

/** The robots.txt URL that governs a page: its origin and `/robots.txt`. */
export function robotsUrlFor(pageUrl: string): string {
  const url = new URL(pageUrl);
  if (!isHttpProtocol(url)) throw new TypeError(`not an http(s) URL: ${pageUrl}`);
  return `${url.origin}/robots.txt`;
}

/** For a robots.txt answered with a 4xx: RFC 9309 lets the crawler fetch anything. */
export const ALLOW_ALL: RobotsRules = Object.freeze({
  isAllowed: (url: string) => parseUrl(url) !== null,
  crawlDelaySeconds: () => null,
  sitemaps: [],
});

/** For a robots.txt answered with a 5xx or unreachable: nothing but robots.txt itself is fetched. */
export const DISALLOW_ALL: RobotsRules = Object.freeze({
  isAllowed: (url: string) => parseUrl(url)?.pathname === "/robots.txt",
  crawlDelaySeconds: () => null,
  sitemaps: [],
});

function readText(body: string | Buffer): string {
  let bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body;
  if (bytes.length > ROBOTS_MAX_BYTES) {
    // Cut at the last line break inside the limit: a half line could be a shorter, different rule.
    const lastBreak = bytes.lastIndexOf(0x0a, ROBOTS_MAX_BYTES - 1);
    bytes = bytes.subarray(0, lastBreak >= 0 ? lastBreak + 1 : ROBOTS_MAX_BYTES);
  }
  // Strips a BOM (UTF-8, or UTF-16 from editors that save that way); otherwise UTF-8 as RFC 9309 asks.
  return decodeBytes(bytes, { kind: "feed" }).text;
}

function* directives(text: string): Generator<Directive> {
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const hash = raw.indexOf("#");
    const line = (hash >= 0 ? raw.slice(0, hash) : raw).trim();
    if (line === "") continue;
    let name: string;
    let value: string;
    const colon = line.indexOf(":");
    if (colon >= 0) {
      name = line.slice(0, colon);
      value = line.slice(colon + 1);
    } else {
      // As Google does: a forgotten colon is accepted when the line is exactly two words.
      const words = line.split(/\s+/);
      if (words.length !== 2) continue;
      [name, value] = words as [string, string];
    }
    const key = KEYS.get(name.trim().toLowerCase().replace(/\s+/g, " "));
    if (key) yield { key, value: value.trim() };
  }
}

// A rule ending in a directory's index page: `/d/index.html` or `/d/index.htm`, with no wildcard.
const INDEX_PAGE = /^([^*$]*\/)index\.html?$/;

/**
 * The product token that names a crawler: the leading letters, digits, `_` and `-` of the first word,
 * lower-cased. RFC 9309 allows only ASCII letters, `_` and `-`; digits are kept so that `MJ12bot` and
 * `bot1` stay themselves, and letters beyond ASCII so that a name such as `Bötbot` stays whole instead of
 * being cut to `b` (which would make it match `Bätbot`, or a crawler named `B`).
 */
function productToken(userAgent: string): string | null {
  const match = /^[\p{L}\p{N}_-]+/u.exec(userAgent.trim());
  return match ? match[0].toLowerCase() : null;
}

// Kept as written: unreserved and reserved characters (RFC 3986) and `%`; everything else is
// percent-encoded as UTF-8. `'` is encoded too because URL parsing encodes it in a query but not in a path.
const NOT_KEPT = /%([0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~:/?@!$&()*+,;=%]/gu;
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * One spelling for a path (RFC 9309 2.2.2, RFC 3986 6.2.2): non-ASCII as upper-case UTF-8 escapes,
 * escaped unreserved characters decoded (`%7E` is `~`), escaped reserved ones kept (`%2F` is not `/`).
 */
function canonicalPath(path: string): string {
  return path.replace(NOT_KEPT, (match: string, hex: string | undefined) => {
    if (hex !== undefined) {
      const char = String.fromCharCode(parseInt(hex, 16));
      return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
    }
    let escaped = "";
    for (const byte of Buffer.from(match, "utf8")) escaped += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
    return escaped;
  });
}

function parseUrl(value: string): URL | null {
  try {
    const url = new URL(value);
    return isHttpProtocol(url) ? url : null;
  } catch {
    return null;
  }
}
