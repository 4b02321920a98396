/**
 * Sitemaps (sitemaps.org: XML urlset and sitemap index, plain text) read from bytes the crawler has
 * fetched itself, gzipped or not, with the Google News extension. Hostile input stays bounded: gzip
 * output is capped while inflating, XML entities are never expanded, and at most `maxUrls` entries are kept.
 */
import { gunzipSync } from "node:zlib";
import { XMLParser } from "fast-xml-parser";
import { decodeFeedBytes } from "~/lib/decode-bytes";
import { httpUrlOrNull } from "~/lib/http-url";
import { parseFeedDate } from "~/lib/parse-date";

export type SitemapNews = { title: string | null; publicationDate: string | null };
export type SitemapUrl = { loc: string; lastmod: string | null; news: SitemapNews | null };
export type SitemapRef = { loc: string; lastmod: string | null };
export type ParsedSitemap = { kind: "urlset" | "index" | "text"; urls: SitemapUrl[]; sitemaps: SitemapRef[]; warnings: string[] };

/** The sitemaps.org limit on an uncompressed sitemap. */
export const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;
/** The sitemaps.org limit on entries in one sitemap. */
export const SITEMAP_MAX_URLS = 50_000;

export type SitemapErrorCode = "TOO_LARGE" | "NOT_A_SITEMAP" | "BAD_GZIP";

/** Why a body could not be read as a sitemap. None of these gets better by fetching again soon. */
export class SitemapError extends Error {
  readonly code: SitemapErrorCode;

  constructor(code: SitemapErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = "SitemapError";
    this.code = code;
  }
}

export type ParseSitemapOptions = {
  /** The sitemap's own URL: relative locations resolve against it. */
  url: string;
  contentType?: string | null;
  /** Largest body accepted, after inflating; SITEMAP_MAX_BYTES by default. */
  maxBytes?: number;
  /** Most entries kept; SITEMAP_MAX_URLS by default. */
  maxUrls?: number;
};

/** Reads a fetched sitemap body (XML urlset or index, or plain text; gzipped or not). Throws SitemapError. */
export function parseSitemap(body: Buffer, options: ParseSitemapOptions): ParsedSitemap {
  const maxBytes = options.maxBytes ?? SITEMAP_MAX_BYTES;
  const maxUrls = options.maxUrls ?? SITEMAP_MAX_URLS;
  const bytes = inflate(body, maxBytes);
  const text = decodeFeedBytes(bytes, options.contentType).text.replace(/^[\s\uFEFF]+/, "");
  const reader = new EntryReader(options.url, maxUrls);
  if (text.startsWith("<")) return readXml(text, reader);
  if (isHtmlType(options.contentType)) throw new SitemapError("NOT_A_SITEMAP", "an HTML page, not a sitemap");
  return readText(text, reader);
}

function inflate(body: Buffer, maxBytes: number): Buffer {
  // Gzip is recognised by its magic bytes: names and content types of .gz files are unreliable.
  if (body[0] !== 0x1f || body[1] !== 0x8b) {
    if (body.length > maxBytes) throw new SitemapError("TOO_LARGE", `sitemap is ${body.length} bytes, over the ${maxBytes}-byte limit`);
    return body;
  }
  try {
    return gunzipSync(body, { maxOutputLength: maxBytes });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") {
      throw new SitemapError("TOO_LARGE", `gzipped sitemap inflates past the ${maxBytes}-byte limit`, { cause: error });
    }
    throw new SitemapError("BAD_GZIP", "gzipped sitemap does not inflate", { cause: error });
  }
}

function isHtmlType(contentType: string | null | undefined): boolean {
  return /^\s*(text\/html|application\/xhtml\+xml)\b/i.test(contentType ?? "");
}

const xmlParser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true, // <sit:loc>, <news:title>: the prefix a sitemap uses is its own choice
  parseTagValue: false,
  processEntities: false, // no DOCTYPE entity is ever expanded; the five XML entities are decoded below
  ignoreDeclaration: true,
  ignorePiTags: true,
  cdataPropName: "#cdata", // CDATA is literal text: kept apart so entities in it are not decoded
  jPath: false,
});

type XmlNode = string | { [name: string]: unknown };

function readXml(text: string, reader: EntryReader): ParsedSitemap {
  if (/^<!doctype\s+html\b/i.test(text)) throw new SitemapError("NOT_A_SITEMAP", "an HTML page, not a sitemap");
  let document: { [name: string]: unknown };
  try {
    document = xmlParser.parse(text) as { [name: string]: unknown };
  } catch (error) {
    throw new SitemapError("NOT_A_SITEMAP", "not well-formed enough to read as XML", { cause: error });
  }
  const root = Object.keys(document).find((name) => !name.startsWith("#"));
  // Namespaces are not checked: sitemaps with an old, wrong or missing xmlns are common and mean the same.
  if (root === "urlset") {
    for (const node of children(document.urlset, "url")) {
      const entry = reader.entry(node);
      if (entry) reader.keepUrl({ ...entry, news: readNews(node) });
    }
    return reader.result("urlset");
  }
  if (root === "sitemapindex") {
    for (const node of children(document.sitemapindex, "sitemap")) {
      const entry = reader.entry(node);
      if (entry) reader.keepSitemap(entry);
    }
    return reader.result("index");
  }
  if (root === "feed" || root === "rss" || root === "RDF") throw new SitemapError("NOT_A_SITEMAP", `a feed (<${root}>), not a sitemap`);
  throw new SitemapError("NOT_A_SITEMAP", root ? `root element <${root}> is not urlset or sitemapindex` : "no root element");
}

function readText(text: string, reader: EntryReader): ParsedSitemap {
  for (const line of text.split(/\r\n|\r|\n/)) {
    const trimmed = line.trim();
    if (trimmed !== "") reader.textLine(trimmed);
  }
  const result = reader.result("text");
  if (!reader.sawUrlLine()) throw new SitemapError("NOT_A_SITEMAP", "no line is an http(s) URL");
  return result;
}

/** Applies the rules every entry shares: trimmed, resolved, http(s) only, at most maxUrls kept. */
class EntryReader {
  private readonly urls: SitemapUrl[] = [];
  private readonly sitemaps: SitemapRef[] = [];
  private overLimit = 0;
  private notHttp = 0;
  private noLoc = 0;
  private undefinedEntity = 0;
  private notUrlLines = 0;
  private urlLines = 0;

  constructor(
    private readonly base: string,
    private readonly maxUrls: number,
  ) {}

  entry(node: XmlNode): SitemapRef | null {
    // <loc> is required, but some sitemaps put the URL straight inside <url> or <sitemap>.
    const raw = typeof node === "string" ? node : (rawText(first(node.loc)) ?? rawText(node));
    if (raw === null || raw.trim() === "") {
      this.noLoc += 1;
      return null;
    }
    if (UNDEFINED_ENTITY.test(raw)) {
      this.undefinedEntity += 1;
      return null;
    }
    const loc = this.resolve(decodeXmlText(raw));
    if (loc === null) return null;
    const lastmod = typeof node === "string" ? null : parseFeedDate(textOf(first(node.lastmod)));
    return { loc, lastmod };
  }

  textLine(line: string): void {
    if (!/^https?:\/\//i.test(line)) {
      this.notUrlLines += 1;
      return;
    }
    this.urlLines += 1;
    const loc = this.resolve(line);
    if (loc !== null) this.keepUrl({ loc, lastmod: null, news: null });
  }

  keepUrl(url: SitemapUrl): void {
    if (this.urls.length + this.sitemaps.length >= this.maxUrls) this.overLimit += 1;
    else this.urls.push(url);
  }

  keepSitemap(ref: SitemapRef): void {
    if (this.urls.length + this.sitemaps.length >= this.maxUrls) this.overLimit += 1;
    else this.sitemaps.push(ref);
  }

  sawUrlLine(): boolean {
    return this.urlLines > 0;
  }

  result(kind: ParsedSitemap["kind"]): ParsedSitemap {
    const warnings: string[] = [];
    if (this.overLimit > 0) warnings.push(`${this.overLimit} entries beyond the limit of ${this.maxUrls} dropped`);
    if (this.notHttp > 0) warnings.push(`${this.notHttp} locations that are not http(s) URLs skipped`);
    if (this.noLoc > 0) warnings.push(`${this.noLoc} entries without a location skipped`);
    if (this.undefinedEntity > 0) warnings.push(`${this.undefinedEntity} locations with an undefined entity reference skipped`);
    if (this.notUrlLines > 0) warnings.push(`${this.notUrlLines} lines that are not http(s) URLs skipped`);
    return { kind, urls: this.urls, sitemaps: this.sitemaps, warnings };
  }

  private resolve(loc: string): string | null {
    const url = httpUrlOrNull(loc, this.base);
    if (url === null) this.notHttp += 1;
    return url;
  }
}

function readNews(node: XmlNode): SitemapNews | null {
  if (typeof node === "string") return null;
  const news = first(node.news);
  if (news === undefined) return null;
  if (typeof news === "string") return { title: null, publicationDate: null };
  const title = textOf(first(news.title));
  return { title: title === "" ? null : title, publicationDate: parseFeedDate(textOf(first(news.publication_date))) };
}

function children(parent: unknown, name: string): XmlNode[] {
  if (parent === null || typeof parent !== "object") return [];
  const value = (parent as { [name: string]: unknown })[name];
  return (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter(isNode);
}

function first(value: unknown): XmlNode | undefined {
  const item = Array.isArray(value) ? value[0] : value;
  return isNode(item) ? item : undefined;
}

function isNode(value: unknown): value is XmlNode {
  return typeof value === "string" || (value !== null && typeof value === "object" && !Array.isArray(value));
}

/** An element's text as written (entities not yet decoded), or null when it has none. */
function rawText(node: XmlNode | undefined): string | null {
  if (node === undefined) return null;
  if (typeof node === "string") return node;
  const text = node["#text"];
  const cdata = node["#cdata"];
  if (typeof text !== "string" && typeof cdata !== "string") return null;
  // CDATA holds no references: escape its ampersands so decoding gives them back unchanged.
  return (typeof text === "string" ? text : "") + (typeof cdata === "string" ? cdata.replace(/&/g, "&amp;") : "");
}

function textOf(node: XmlNode | undefined): string {
  const raw = rawText(node);
  return raw === null ? "" : decodeXmlText(raw).trim();
}

// XML predefines five entities; anything else named is a DOCTYPE entity, which is never expanded.
const UNDEFINED_ENTITY = /&(?!(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);)[A-Za-z_:][\w.:-]*;/;
const REFERENCE = /&(?:(amp|lt|gt|quot|apos)|#([0-9]+)|#x([0-9a-fA-F]+));/g;
const PREDEFINED: { [name: string]: string } = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decodeXmlText(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(REFERENCE, (match: string, name?: string, decimal?: string, hex?: string) => {
    if (name) return PREDEFINED[name]!;
    const code = decimal !== undefined ? Number.parseInt(decimal, 10) : Number.parseInt(hex!, 16);
    const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
    return valid ? String.fromCodePoint(code) : match;
  });
}
