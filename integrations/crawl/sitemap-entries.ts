import { httpUrlOrNull } from "~/lib/http-url";
import { parseFeedDate } from "~/lib/parse-date";
import type { Cut, ParsedSitemap, SitemapRef, SitemapUrl } from "./sitemap";

// A sitemap's entries as its parser meets them: each value's raw text, capped, then the rules every
// entry shares, and XML's own character references decoded (no other entity is ever expanded).

/** A URL, a date or a title longer than this is not one: it is dropped rather than held. */
export const MAX_VALUE_CHARS = 64 * 1024;
const UNDEFINED_ENTITY = /&(?!(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);)[A-Za-z_:][\w.:-]*;/;
const REFERENCE = /&(?:(amp|lt|gt|quot|apos)|#([0-9]+)|#x([0-9a-fA-F]+));/g;
const PREDEFINED: { [name: string]: string } = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** An element's text as written (entities not yet decoded; CDATA's ampersands escaped), capped. */
export class RawText {
  value = "";
  overlong = false;

  add(text: string): void {
    if (this.overlong) return;
    if (this.value.length + text.length > MAX_VALUE_CHARS) {
      this.overlong = true;
      this.value = "";
    } else {
      this.value += text;
    }
  }
}

export type Entry = {
  own: RawText;
  loc: RawText | null;
  lastmod: RawText | null;
  news: { title: RawText | null; date: RawText | null } | null;
};

/** Applies the rules every entry shares: trimmed, resolved, http(s) only, at most maxUrls kept. */
export class EntryReader {
  full = false;
  private readonly urls: SitemapUrl[] = [];
  private readonly sitemaps: SitemapRef[] = [];
  private notHttp = 0;
  private noLoc = 0;
  private undefinedEntity = 0;
  private notUrlLines = 0;
  private urlLines = 0;

  private readonly maxUrls: number;
  private readonly maxBytes: number;

  constructor(
    private readonly base: string,
    limits: { maxUrls: number; maxBytes: number },
  ) {
    this.maxUrls = limits.maxUrls;
    this.maxBytes = limits.maxBytes;
  }

  urlEntry(entry: Entry): void {
    const ref = this.entry(entry);
    if (!ref) return;
    const news = entry.news && { title: textOf(entry.news.title) || null, publicationDate: parseFeedDate(textOf(entry.news.date)) };
    this.keep(() => this.urls.push({ ...ref, news }));
  }

  sitemapEntry(entry: Entry): void {
    const ref = this.entry(entry);
    if (ref) this.keep(() => this.sitemaps.push(ref));
  }

  textLine(line: string): void {
    if (!/^https?:\/\//i.test(line)) {
      this.notUrlLines += 1;
      return;
    }
    this.urlLines += 1;
    const loc = this.resolve(line);
    if (loc !== null) this.keep(() => this.urls.push({ loc, lastmod: null, news: null }));
  }

  notUrlLine(): void {
    this.notUrlLines += 1;
  }

  sawUrlLine(): boolean {
    return this.urlLines > 0;
  }

  result(kind: ParsedSitemap["kind"], cut: Cut): ParsedSitemap {
    const warnings: string[] = [];
    if (cut === "urls") warnings.push(`more than ${this.maxUrls} entries: read no further than the limit of ${this.maxUrls}`);
    if (cut === "bytes") warnings.push(`more than ${this.maxBytes} bytes: read no further than the limit of ${this.maxBytes}`);
    if (this.notHttp > 0) warnings.push(`${this.notHttp} locations that are not http(s) URLs skipped`);
    if (this.noLoc > 0) warnings.push(`${this.noLoc} entries without a location skipped`);
    if (this.undefinedEntity > 0) warnings.push(`${this.undefinedEntity} locations with an undefined entity reference skipped`);
    if (this.notUrlLines > 0) warnings.push(`${this.notUrlLines} lines that are not http(s) URLs skipped`);
    return { kind, urls: this.urls, sitemaps: this.sitemaps, warnings };
  }

  // An entry past the limit ends the reading: the sitemap is cut there.
  private keep(add: () => void): void {
    if (this.urls.length + this.sitemaps.length >= this.maxUrls) this.full = true;
    else add();
  }

  private entry(entry: Entry): SitemapRef | null {
    // <loc> is required, but some sitemaps put the URL straight inside <url> or <sitemap>.
    const raw = entry.loc ?? entry.own;
    if (raw.overlong) {
      this.notHttp += 1;
      return null;
    }
    const value = raw.value.trim();
    if (value === "") {
      this.noLoc += 1;
      return null;
    }
    if (UNDEFINED_ENTITY.test(value)) {
      this.undefinedEntity += 1;
      return null;
    }
    const loc = this.resolve(decodeXmlText(value));
    if (loc === null) return null;
    return { loc, lastmod: parseFeedDate(textOf(entry.lastmod)) };
  }

  private resolve(loc: string): string | null {
    const url = httpUrlOrNull(loc, this.base);
    if (url === null) this.notHttp += 1;
    return url;
  }
}

function textOf(raw: RawText | null): string {
  return raw === null || raw.overlong ? "" : decodeXmlText(raw.value.trim()).trim();
}

function decodeXmlText(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(REFERENCE, (match: string, name?: string, decimal?: string, hex?: string) => {
    if (name) return PREDEFINED[name]!;
    const code = decimal !== undefined ? Number.parseInt(decimal, 10) : Number.parseInt(hex!, 16);
    const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
    return valid ? String.fromCodePoint(code) : match;
  });
}
