import type { FeedFormat, ParsedFeed } from "./types";
import { escapeHtml } from "./values";
import { detectVersion } from "./version";

// Recovery for broken feeds: leading junk, truncation, a missing channel, prefixed roots, Atom 0.3 base64.

/** Drops a BOM and anything before the first markup that can start an XML feed. */
export function trimLeadingJunk(text: string): string {
  const start = text.search(/<(?:\?xml|!--|!DOCTYPE|(?:[\w-]+:)?(?:rss|feed|RDF)\b)/i);
  return start > 0 ? text.slice(start) : text.replace(/^\uFEFF/, "");
}

const TOKEN = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>|<![^>]*>|<(\/?)([A-Za-z_][\w:.-]*)(?:"[^"]*"|'[^']*'|[^'">])*?(\/?)>/g;

/** Closes what a truncated document left open, after its last complete entry. */
export function closeTruncated(text: string): string {
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
export function addChannel(text: string): string | null {
  if (/<(?:[\w-]+:)?channel[\s>]/i.test(text)) return null;
  const open = /<((?:[\w-]+:)?rss)\b[^>]*>/i.exec(text);
  if (!open) return null;
  const afterOpen = open.index + open[0].length;
  const close = text.search(new RegExp(`</${open[1]}\\s*>`, "i"));
  const end = close === -1 ? text.length : close;
  return `${text.slice(0, afterOpen)}<channel>${text.slice(afterOpen, end)}</channel>${text.slice(end)}`;
}

/** `<r:rss xmlns:r="…">`: feedsmith only knows unprefixed RSS, so drop the root's prefix everywhere. */
export function unprefixRss(text: string): string {
  const m = /<([\w-]+):rss\b/.exec(text);
  if (!m) return text;
  return text.replace(new RegExp(`<(/?)${m[1]}:`, "g"), "<$1");
}

/** Atom 0.3 `mode="base64"`: decode in place, as escaped text, before feedsmith (which ignores mode). */
export function decodeBase64Modes(text: string): string {
  if (!/mode\s*=\s*["']base64["']/.test(text)) return text;
  return text.replace(/<([\w:.-]+)(\s[^>]*?)\bmode\s*=\s*["']base64["']([^>]*)>([\s\S]*?)<\/\1\s*>/g, (_m, name: string, before: string, after: string, body: string) => {
    const decoded = Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
    return `<${name}${before}mode="escaped"${after}>${escapeHtml(decoded)}</${name}>`;
  });
}

export function emptyFeed(text: string): ParsedFeed | null {
  const root = /<(?:[\w-]+:)?(rss|feed|RDF)\b[^>]*>/i.exec(text);
  if (!root) return null;
  const format: FeedFormat = root[1] === "rss" ? "rss" : root[1] === "feed" ? "atom" : "rdf";
  // Only a root with nothing readable inside: anything more is malformed, not empty.
  const inner = text.slice(root.index + root[0].length).replace(/<!--[\s\S]*?-->/g, "");
  if (/<(?:[\w-]+:)?(?:item|entry)\b/i.test(inner)) return null;
  return { format, version: detectVersion(format, text, null), title: null, description: null, siteUrl: null, updatedAt: null, items: [] };
}
