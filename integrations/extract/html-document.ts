import { DOMParser } from "linkedom";

/** Markup handed to the parser and to Readability; longer bodies are cut (an article's text comes first). */
const MAX_BODY_CHARS = 1_000_000;
const MAX_HEAD_CHARS = 500_000;
const MAX_SNIPPET_CHARS = 200_000;
/** Beyond this nesting the parser itself turns quadratic: such a body is not an article, so it is dropped. */
const MAX_PARSE_DEPTH = 1_000;
/** Readability slows down steeply with depth (seconds at 250 levels); real pages stay well under 60. */
const MAX_ARTICLE_DEPTH = 100;

// Elements whose content is never article text, removed before parsing to save time on heavy pages.
const DROPPED = ["script", "style", "template", "svg", "math", "iframe", "object", "canvas"];

/**
 * Parses untrusted HTML into a well-formed document (html > head + body), whatever the input:
 * fragments, binary junk, huge or deeply nested pages. Never throws.
 */
export function parsePage(html: string, options: { headOnly?: boolean } = {}): Document {
  try {
    const page = splitPage(stripDropped(removeControls(html)));
    // The cheap readers only need the head; a page without one is read from its first part instead.
    const body = options.headOnly ? (page.head === "" ? cut(page.body, MAX_SNIPPET_CHARS) : "") : cut(page.body, MAX_BODY_CHARS);
    const document = parse(shallow(page.head), shallow(body));
    flattenDeepElements(document.body, MAX_ARTICLE_DEPTH);
    return document;
  } catch {
    return parse("", "");
  }
}

/** Parses a small piece of markup (an <h1>, say) into a body. */
export function parseSnippet(html: string): Document {
  try {
    return parse("", shallow(cut(stripDropped(removeControls(html)), MAX_SNIPPET_CHARS)));
  } catch {
    return parse("", "");
  }
}

/** The markup itself, or nothing when it is nested too deeply to be worth parsing (it is never an article). */
function shallow(markup: string): string {
  return estimateDepth(markup) <= MAX_PARSE_DEPTH ? markup : "";
}

function parse(head: string, body: string): Document {
  return new DOMParser().parseFromString(
    `<!DOCTYPE html><html><head>${head}</head><body>${body}</body></html>`,
    "text/html",
  ) as unknown as Document;
}

function removeControls(html: string): string {
  if (typeof html !== "string") return "";
  // NUL and other C0 controls are never text; a BOM at the start is not content.
  // eslint-disable-next-line no-control-regex
  return html.replace(/^\ufeff/, "").replace(/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/g, "");
}

/**
 * Drops scripts (but keeps JSON-LD), styles and the like, and comments, with a linear scan:
 * a lazy regex would go quadratic on thousands of unclosed <script> tags.
 */
function stripDropped(html: string): string {
  const lower = html.toLowerCase();
  let out = "";
  let pos = 0;
  const open = /<!--|<([a-z]+)[\s/>]/g;
  for (;;) {
    open.lastIndex = pos;
    let match: RegExpExecArray | null;
    let name: string | undefined;
    // Find the next comment or dropped element.
    for (;;) {
      match = open.exec(lower);
      if (!match) break;
      name = match[1];
      if (name === undefined || DROPPED.includes(name)) break;
    }
    if (!match) break;
    const start = match.index;
    if (name === undefined) {
      const end = lower.indexOf("-->", start + 4);
      out += html.slice(pos, start);
      pos = end < 0 ? html.length : end + 3;
      continue;
    }
    const tagEnd = lower.indexOf(">", start);
    const close = lower.indexOf(`</${name}`, tagEnd < 0 ? start : tagEnd);
    const closeEnd = close < 0 ? -1 : lower.indexOf(">", close);
    const end = closeEnd < 0 ? html.length : closeEnd + 1;
    const keep = name === "script" && tagEnd > 0 && /type\s*=\s*["']?application\/ld\+json/.test(lower.slice(start, tagEnd));
    out += html.slice(pos, keep ? end : start);
    pos = end;
  }
  return out + html.slice(pos);
}

const OPEN_BODY = /<body[\s>]/i;
const WRAPPER_TAGS = /<!doctype[^<>]*>|<\/?(?:html|head|body)(?:\s[^<>]*)?>/gi;

/** Splits a page into head and body markup, without their wrapper tags, however they are (mis)written. */
function splitPage(html: string): { head: string; body: string } {
  const lower = html.toLowerCase();
  const bodyOpen = lower.search(OPEN_BODY);
  const headClose = lower.indexOf("</head");
  // With neither marker everything is body: metadata is read from the whole document anyway.
  const split = bodyOpen >= 0 ? bodyOpen : headClose >= 0 ? headClose : 0;
  let body = html.slice(split);
  const bodyClose = body.toLowerCase().lastIndexOf("</body");
  if (bodyClose > 0) body = body.slice(0, bodyClose);
  return { head: cut(html.slice(0, split).replace(WRAPPER_TAGS, ""), MAX_HEAD_CHARS), body: body.replace(WRAPPER_TAGS, "") };
}

function cut(markup: string, max: number): string {
  if (markup.length <= max) return markup;
  const lastTag = markup.lastIndexOf("<", max);
  return markup.slice(0, lastTag > max / 2 ? lastTag : max);
}

const VOID_OR_OPTIONAL = new Set([
  "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr",
  // End tags that may be left out: the parser closes these itself.
  "p", "li", "dt", "dd", "option", "optgroup", "tr", "td", "th", "thead", "tbody", "tfoot", "colgroup", "rb", "rt", "rp",
]);

/** A cheap upper bound of the nesting depth, from the tags alone (before paying for a parse). */
function estimateDepth(markup: string): number {
  const tag = /<(\/?)([a-z][a-z0-9-]*)[^<>]*?(\/?)>/gi;
  let depth = 0;
  let max = 0;
  for (let m = tag.exec(markup); m; m = tag.exec(markup)) {
    if (m[3] === "/" || VOID_OR_OPTIONAL.has(m[2]!.toLowerCase())) continue;
    if (m[1] === "/") depth = Math.max(0, depth - 1);
    else if (++depth > max) max = depth;
  }
  return max;
}

/** Replaces every element nested deeper than `maxDepth` by a paragraph of its text. */
function flattenDeepElements(root: Element | null, maxDepth: number): void {
  if (!root) return;
  const stack: [Element, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [element, depth] = stack.pop()!;
    if (depth >= maxDepth && element.firstElementChild) {
      const flat = element.ownerDocument.createElement("p");
      flat.textContent = element.textContent;
      element.replaceWith(flat);
      continue;
    }
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) stack.push([child, depth + 1]);
  }
}
