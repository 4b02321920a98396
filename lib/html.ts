import { decodeHTML } from "entities";
import sanitize from "sanitize-html";
import { httpUrlOrNull } from "./http-url";

const ALLOWED_TAGS = [
  "p", "br", "hr", "div", "span", "a", "ul", "ol", "li", "dl", "dt", "dd",
  "blockquote", "q", "cite", "pre", "code", "kbd", "samp", "var",
  "em", "strong", "b", "i", "u", "s", "del", "ins", "mark", "small", "sub", "sup", "abbr", "time",
  "h1", "h2", "h3", "h4", "h5", "h6",
  "figure", "figcaption", "img",
  "table", "caption", "thead", "tbody", "tfoot", "tr", "th", "td", "colgroup", "col",
];

const ALLOWED_ATTRIBUTES: Record<string, string[]> = {
  a: ["href", "title", "rel"],
  img: ["src", "alt", "title", "width", "height"],
  abbr: ["title"],
  time: ["datetime"],
  ol: ["start", "reversed"],
  td: ["colspan", "rowspan"],
  th: ["colspan", "rowspan", "scope"],
  col: ["span"],
  colgroup: ["span"],
};

const LINK_REL = "noopener noreferrer nofollow";

/**
 * Resolves a URL attribute to an absolute http(s) (or, for links, mailto) URL, or null to drop it.
 * Without a base, a relative URL is dropped: shown on our pages it would point at our own site.
 */
function safeUrl(value: string | undefined, baseUrl: string | null, allowMailto: boolean): string | null {
  const http = httpUrlOrNull(value, baseUrl);
  if (http !== null || !allowMailto || value == null) return http;
  const trimmed = value.trim();
  return /^mailto:/i.test(trimmed) && URL.canParse(trimmed) ? new URL(trimmed).href : null;
}

function validBase(baseUrl: string | null | undefined): string | null {
  return baseUrl ? httpUrlOrNull(baseUrl) : null;
}

/** Makes untrusted HTML safe to store and show: an allowlist of text tags, absolute http(s) URLs, no scripts or styles. */
export function sanitizeHtml(html: string, options: { baseUrl?: string | null } = {}): string {
  const base = validBase(options.baseUrl);
  return sanitize(html, {
    allowedTags: ALLOWED_TAGS,
    allowedAttributes: ALLOWED_ATTRIBUTES,
    allowedSchemes: ["http", "https"],
    allowedSchemesByTag: { a: ["http", "https", "mailto"] },
    allowedSchemesAppliedToAttributes: ["href", "src", "cite"],
    allowProtocolRelative: false,
    disallowedTagsMode: "discard",
    nonTextTags: ["script", "style", "textarea", "option", "title", "template", "noembed", "xmp"],
    transformTags: {
      a: (tagName, attribs) => {
        const href = safeUrl(attribs.href, base, true);
        const next: Record<string, string> = {};
        if (attribs.title) next.title = attribs.title;
        if (href) {
          next.href = href;
          next.rel = LINK_REL;
        }
        return { tagName, attribs: next };
      },
      img: (tagName, attribs) => {
        const src = safeUrl(attribs.src, base, false);
        const { src: _src, ...rest } = attribs;
        return { tagName, attribs: src ? { src, ...rest } : rest };
      },
    },
    // An image with nothing safe to show is noise.
    exclusiveFilter: (frame) => frame.tag === "img" && !frame.attribs.src,
  });
}

// The same elements whose content the sanitiser drops (its nonTextTags), plus <head>.
const DROPPED_WITH_CONTENT = /<(script|style|template|title|head|textarea|option|noembed|xmp)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const BLOCK_TAG =
  /<\/?(?:p|div|br|hr|li|ul|ol|dl|dt|dd|h[1-6]|blockquote|pre|table|caption|thead|tbody|tfoot|tr|th|td|section|article|aside|header|footer|nav|main|figure|figcaption|address|details|summary|form|fieldset|center|body|html)\b[^>]*>/gi;

/** Plain text of an HTML fragment: tags dropped, entities decoded, one line per block, whitespace collapsed. */
export function htmlToText(html: string): string {
  const text = html
    .replace(/<!--[\s\S]*?-->/g, "")
    // An unterminated comment ends at the next '>', as lenient parsers read it.
    .replace(/<!--[^>]*(?:>|$)/g, "")
    .replace(/<!\[CDATA\[([\s\S]*?)(?:\]\]>|$)/g, (_m, inner: string) => inner.replace(/</g, "&lt;"))
    .replace(DROPPED_WITH_CONTENT, "")
    .replace(/\s+/g, " ")
    .replace(BLOCK_TAG, "\n")
    .replace(/<\/?[a-zA-Z!?][^>]*(?:>|$)/g, "");
  return decodeHTML(text)
    .split("\n")
    .map((line) => line.replace(/[\s\u00a0\u200b\ufeff]+/g, " ").trim())
    .filter((line) => line !== "")
    .join("\n");
}

/** Shortens text to at most `max` characters, cutting at a word boundary and ending with an ellipsis. */
export function truncateText(text: string, max: number): string {
  if (max <= 0) return "";
  if (text.length <= max) return text;
  if (max === 1) return "…";
  const cut = text.slice(0, max - 1);
  const lastSpace = cut.search(/\s\S*$/);
  const head = lastSpace > max / 2 ? cut.slice(0, lastSpace) : cut;
  return `${head.replace(/[\s,;:.\-–—]+$/, "")}…`;
}
