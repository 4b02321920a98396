import { DOMParser } from "linkedom";
import { htmlToText } from "~/lib/html";

/** Markup handed to the parser and to Readability; longer bodies are cut (an article's text comes first). */
const MAX_BODY_CHARS = 1_000_000;
const MAX_HEAD_CHARS = 500_000;
const MAX_SNIPPET_CHARS = 200_000;
/** Beyond this nesting the parser itself turns quadratic: such a body is not an article, so it is dropped. */
const MAX_PARSE_DEPTH = 1_000;
/** Readability's work grows with depth (seconds at 250 levels); article text rarely sits deeper than 30. */
const MAX_ARTICLE_DEPTH = 40;
/** Parse and Readability time grow with elements times depth: 10,000 is well above a real article page. */
const MAX_BODY_ELEMENTS = 10_000;
const MAX_HEAD_ELEMENTS = 5_000;

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
    const document = parse(bounded(page.head, MAX_HEAD_ELEMENTS), bounded(body, MAX_BODY_ELEMENTS));
    flattenDeepElements(document.body, MAX_ARTICLE_DEPTH);
    return document;
  } catch {
    return parse("", "");
  }
}

/** Parses a small piece of markup (an <h1>, say) into a body. */
export function parseSnippet(html: string): Document {
  try {
    return parse("", bounded(cut(stripDropped(removeControls(html)), MAX_SNIPPET_CHARS), MAX_HEAD_ELEMENTS));
  } catch {
    return parse("", "");
  }
}

/**
 * The markup cut after `maxElements` elements (parse and Readability time grow faster than the element
 * count), or nothing when it is nested too deeply to be worth parsing: such markup is never an article.
 * A scan of the tags alone, before paying for a parse.
 */
function bounded(markup: string, maxElements: number): string {
  const tag = /<(\/?)([a-z][a-z0-9-]*)[^<>]*?(\/?)>/gi;
  let depth = 0;
  let elements = 0;
  for (let m = tag.exec(markup); m; m = tag.exec(markup)) {
    if (m[1] === "/") {
      if (!VOID_OR_OPTIONAL.has(m[2]!.toLowerCase())) depth = Math.max(0, depth - 1);
      continue;
    }
    if (++elements > maxElements) return markup.slice(0, m.index);
    if (m[3] === "/" || VOID_OR_OPTIONAL.has(m[2]!.toLowerCase())) continue;
    if (++depth > MAX_PARSE_DEPTH) return "";
  }
  return markup;
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


/** Replaces every element nested deeper than `maxDepth` by its text, one paragraph per block. */
function flattenDeepElements(root: Element | null, maxDepth: number): void {
  if (!root) return;
  const stack: [Element, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [element, depth] = stack.pop()!;
    if (depth >= maxDepth && element.firstElementChild) {
      const document = element.ownerDocument;
      const paragraphs = htmlToText(element.innerHTML)
        .split("\n")
        .map((line) => {
          const p = document.createElement("p");
          p.textContent = line;
          return p;
        });
      element.replaceWith(...paragraphs);
      continue;
    }
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) stack.push([child, depth + 1]);
  }
}
