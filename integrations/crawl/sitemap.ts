/**
 * Sitemaps (sitemaps.org: XML urlset and sitemap index, plain text) read from bytes the crawler has
 * fetched itself, gzipped or not, with the Google News extension. Read as a stream: bytes, gunzip,
 * text decoder and a SAX parser (htmlparser2) chunk by chunk, never the whole document as one string
 * or tree, yielding to the event loop as it goes. Within the sitemaps.org limits: past 50,000 entries
 * or 50 MB uncompressed the reading stops and the result says where it was cut. Hostile input stays
 * bounded: gzip is inflated only as far as it is read, XML entities are never expanded, and no value
 * grows past MAX_VALUE_CHARS.
 */
import { Readable } from "node:stream";
import { setImmediate as nextTurn } from "node:timers/promises";
import { createGunzip } from "node:zlib";
import { Parser } from "htmlparser2";
import { createStreamDecoder, encodingCandidates, EncodingMismatch, type EncodingCandidate } from "~/lib/decode-bytes";
import { EntryReader, MAX_VALUE_CHARS, RawText, type Entry } from "./sitemap-entries";

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
  /** Most bytes read, after inflating; SITEMAP_MAX_BYTES by default. */
  maxBytes?: number;
  /** Most entries kept; SITEMAP_MAX_URLS by default. */
  maxUrls?: number;
  /** The body is only the first part of a longer one (the fetch stopped reading at the limit). */
  truncated?: boolean;
};

/** Where the bytes of a sitemap come from: opened again from the start when its encoding was guessed wrong. */
export type SitemapSource = () => AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

/** The first bytes read before choosing an encoding (BOM, XML declaration). */
const HEAD_BYTES = 4096;
/** Bytes read between two yields to the event loop. */
const YIELD_EVERY_BYTES = 512 * 1024;
const CHUNK_BYTES = 256 * 1024;

/** Reads a fetched sitemap body (XML urlset or index, or plain text; gzipped or not). Rejects with SitemapError. */
export function parseSitemap(body: Uint8Array, options: ParseSitemapOptions): Promise<ParsedSitemap> {
  return readSitemap(() => chunksOf(body), options);
}

/** Reads a sitemap from a source of bytes (a file's stream, say) without holding all of it. Rejects with SitemapError. */
export async function readSitemap(open: SitemapSource, options: ParseSitemapOptions): Promise<ParsedSitemap> {
  const maxBytes = options.maxBytes ?? SITEMAP_MAX_BYTES;
  let candidates: EncodingCandidate[] | null = null;
  for (let attempt = 0; ; attempt++) {
    try {
      const { text, cut } = await readOnce(open, options, maxBytes, (head) => {
        candidates ??= encodingCandidates(head, { contentType: options.contentType, kind: "feed" });
        return candidates[attempt]!;
      });
      return text.result(cut);
    } catch (error) {
      // The bytes break this encoding: read again in the next one (the last never fails).
      if (error instanceof EncodingMismatch && candidates !== null && attempt + 1 < (candidates as EncodingCandidate[]).length) continue;
      throw error;
    }
  }
}

function* chunksOf(body: Uint8Array): Iterable<Uint8Array> {
  for (let start = 0; start < body.length; start += CHUNK_BYTES) yield body.subarray(start, start + CHUNK_BYTES);
}

export type Cut = "bytes" | "urls" | null;

// One pass over the bytes in one encoding.
async function readOnce(
  open: SitemapSource,
  options: ParseSitemapOptions,
  maxBytes: number,
  encodingFor: (head: Uint8Array) => EncodingCandidate,
): Promise<{ text: SitemapText; cut: Cut }> {
  const text = new SitemapText(options.url, options.contentType ?? null, { maxUrls: options.maxUrls ?? SITEMAP_MAX_URLS, maxBytes });
  const bytes = limitedBytes(open, maxBytes, options.truncated === true);
  let decoder: ReturnType<typeof createStreamDecoder> | null = null;
  let head: Uint8Array[] = [];
  let headLength = 0;
  let sinceYield = 0;
  const start = () => {
    const first = Buffer.concat(head, headLength);
    head = [];
    decoder = createStreamDecoder(encodingFor(first));
    text.write(decoder.write(first));
  };
  for await (const chunk of bytes.chunks) {
    if (decoder === null) {
      head.push(chunk);
      headLength += chunk.length;
      if (headLength >= HEAD_BYTES) start();
    } else {
      text.write((decoder as ReturnType<typeof createStreamDecoder>).write(chunk));
    }
    if (text.full) break;
    sinceYield += chunk.length;
    if (sinceYield >= YIELD_EVERY_BYTES) {
      sinceYield = 0;
      await nextTurn();
    }
  }
  if (decoder === null && !text.full) start();
  const cut: Cut = text.full ? "urls" : bytes.cut() ? "bytes" : null;
  // Text cut off mid-way is not decoded to its end: the last character may be partial.
  if (cut === null) text.write((decoder as ReturnType<typeof createStreamDecoder> | null)?.end() ?? "");
  text.end(cut);
  return { text, cut };
}

/**
 * The sitemap's bytes, inflated when they are gzip (recognised by their magic bytes: names and content
 * types of .gz files are unreliable), at most `maxBytes` of them: `cut()` says whether there were more.
 */
function limitedBytes(open: SitemapSource, maxBytes: number, truncated: boolean): { chunks: AsyncIterable<Uint8Array>; cut: () => boolean } {
  let cut = false;
  async function* chunks(): AsyncGenerator<Uint8Array> {
    let total = 0;
    for await (const chunk of inflated(open, truncated, () => (cut = true))) {
      if (total + chunk.length > maxBytes) {
        cut = true;
        if (total < maxBytes) yield chunk.subarray(0, maxBytes - total);
        return;
      }
      total += chunk.length;
      yield chunk;
    }
    // What was read ends where the fetch stopped, not where the sitemap does.
    if (truncated) cut = true;
  }
  return { chunks: chunks(), cut: () => cut };
}

async function* inflated(open: SitemapSource, truncated: boolean, cutShort: () => void): AsyncGenerator<Uint8Array> {
  const source = open();
  const iterator = (Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]()) as AsyncIterator<Uint8Array> | Iterator<Uint8Array>;
  try {
    let first = await iterator.next();
    // Skip empty chunks to see the magic bytes.
    while (!first.done && first.value.length === 0) first = await iterator.next();
    if (first.done) return;
    const head = first.value;
    async function* all() {
      yield head;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    }
    if (head[0] !== 0x1f || head[1] !== 0x8b) {
      yield* all();
      return;
    }
    const gunzip = Readable.from(all(), { objectMode: false }).pipe(createGunzip());
    try {
      for await (const chunk of gunzip) yield chunk as Buffer;
    } catch (error) {
      // The fetch stopped reading at the limit: gzip cut short there is the cut, not a broken file.
      if (truncated && (error as NodeJS.ErrnoException).code === "Z_BUF_ERROR") {
        cutShort();
        return;
      }
      throw new SitemapError("BAD_GZIP", "gzipped sitemap does not inflate", { cause: error });
    } finally {
      gunzip.destroy();
    }
  } finally {
    // A file's stream, say, is closed when the reading stops early.
    await iterator.return?.();
  }
}

// XML predefines five entities; anything else named is a DOCTYPE entity, which is never expanded.
const EXTERNAL_ENTITY = /<?!ENTITY\b[^>]*\b(?:SYSTEM|PUBLIC)\b/i;

/**
 * The decoded text of a sitemap, written chunk by chunk: XML (its first non-blank character is `<`)
 * read by a SAX parser, or plain text read line by line. `full` once the entry limit is reached.
 */
class SitemapText {
  full = false;
  private mode: "unknown" | "xml" | "text" = "unknown";
  private readonly entries: EntryReader;
  private parser: Parser | null = null;
  private kind: ParsedSitemap["kind"] | null = null;
  /** Local names of the open elements, root first. */
  private readonly open: string[] = [];
  private entry: Entry | null = null;
  /** Where the text of the innermost open element goes, if anywhere. */
  private readonly targets: (RawText | null)[] = [];
  private inCdata = false;
  /** The entry's first <news> is open: its <title> and <publication_date> are read. */
  private inNews = false;
  private rootClosed = false;
  private line = "";
  private lineTooLong = false;
  private failure: SitemapError | null = null;

  constructor(
    base: string,
    private readonly contentType: string | null,
    limits: { maxUrls: number; maxBytes: number },
  ) {
    this.entries = new EntryReader(base, limits);
  }

  write(text: string): void {
    if (text === "" || this.full || this.rootClosed) return;
    if (this.mode === "unknown") {
      const start = text.search(/[^\s\uFEFF]/);
      if (start < 0) return;
      text = text.slice(start);
      if (text.startsWith("<")) this.startXml();
      else if (/^\s*(text\/html|application\/xhtml\+xml)\b/i.test(this.contentType ?? "")) throw new SitemapError("NOT_A_SITEMAP", "an HTML page, not a sitemap");
      else this.mode = "text";
    }
    if (this.mode === "xml") {
      this.parser!.write(text);
      if (this.failure) throw this.failure;
    } else {
      this.writeLines(text);
    }
  }

  /** The end of what is read: the whole document, or where it was cut. */
  end(cut: Cut): void {
    if (this.mode === "xml" && cut === null && !this.rootClosed) {
      this.parser!.end();
      if (this.failure) throw this.failure;
    }
    if (this.mode === "text" && cut === null) this.textLine(this.line);
  }

  result(cut: Cut): ParsedSitemap {
    const kind = this.mode === "text" ? "text" : this.kind;
    if (kind === null || (kind === "text" && !this.entries.sawUrlLine())) {
      if (cut === "bytes") throw new SitemapError("TOO_LARGE", "no sitemap entry within the size limit");
      if (kind === "text") throw new SitemapError("NOT_A_SITEMAP", "no line is an http(s) URL");
      throw new SitemapError("NOT_A_SITEMAP", this.mode === "xml" ? "no root element" : "an empty body");
    }
    return this.entries.result(kind, cut);
  }

  private writeLines(text: string): void {
    const lines = (this.line + text).split(/\r\n|\r|\n/);
    this.line = lines.pop() ?? "";
    for (const line of lines) {
      this.textLine(line);
      if (this.full) return;
    }
    // One line as long as a whole sitemap is not a URL: it is not held.
    if (this.line.length > MAX_VALUE_CHARS) {
      this.line = "";
      this.lineTooLong = true;
    }
  }

  private textLine(line: string): void {
    const tooLong = this.lineTooLong;
    this.lineTooLong = false;
    const trimmed = line.trim();
    if (tooLong) this.entries.notUrlLine();
    else if (trimmed !== "") this.entries.textLine(trimmed);
    this.full = this.entries.full;
  }

  private startXml(): void {
    this.mode = "xml";
    this.parser = new Parser(
      {
        onopentagname: (name) => this.openElement(localName(name)),
        onclosetag: () => this.closeElement(),
        ontext: (data) => this.targets.at(-1)?.add(this.inCdata ? data.replace(/&/g, "&amp;") : data),
        oncdatastart: () => (this.inCdata = true),
        oncdataend: () => (this.inCdata = false),
        onprocessinginstruction: (name, data) => this.declaration(name, data),
      },
      // Raw text: the five XML entities and character references are decoded here, nothing else ever is.
      { xmlMode: true, decodeEntities: false },
    );
  }

  private declaration(name: string, data: string): void {
    if (this.open.length > 0 || this.failure) return;
    if (/^!doctype\s+html\b/i.test(data)) this.fail("an HTML page, not a sitemap");
    else if (name.startsWith("!") && EXTERNAL_ENTITY.test(data)) this.fail("declares an external entity, which is never read");
  }

  // Thrown once the parser has returned: nothing more of the document is read.
  private fail(message: string): void {
    this.failure = new SitemapError("NOT_A_SITEMAP", message);
    this.parser?.pause();
  }

  private openElement(name: string): void {
    const depth = this.open.length;
    this.open.push(name);
    let target: RawText | null = null;
    if (this.failure || this.full) {
      // Nothing more is read.
    } else if (depth === 0) {
      // Namespaces are not checked: sitemaps with an old, wrong or missing xmlns are common and mean the same.
      if (name === "urlset") this.kind = "urlset";
      else if (name === "sitemapindex") this.kind = "index";
      else if (name === "feed" || name === "rss" || name === "RDF") this.fail(`a feed (<${name}>), not a sitemap`);
      else this.fail(`root element <${name}> is not urlset or sitemapindex`);
    } else if (depth === 1 && name === (this.kind === "urlset" ? "url" : "sitemap")) {
      this.entry = { own: new RawText(), loc: null, lastmod: null, news: null };
      target = this.entry.own;
    } else if (depth === 2 && this.entry) {
      // The first of each: a <loc> inside <image:image> or <video:video> is one level deeper and never read.
      if (name === "loc" && !this.entry.loc) target = this.entry.loc = new RawText();
      else if (name === "lastmod" && !this.entry.lastmod) target = this.entry.lastmod = new RawText();
      else if (name === "news" && !this.entry.news && this.kind === "urlset") {
        this.entry.news = { title: null, date: null };
        this.inNews = true;
      }
    } else if (depth === 3 && this.entry?.news && this.inNews) {
      const news = this.entry.news;
      if (name === "title" && !news.title) target = news.title = new RawText();
      else if (name === "publication_date" && !news.date) target = news.date = new RawText();
    }
    this.targets.push(target);
  }

  private closeElement(): void {
    const depth = this.open.length - 1;
    this.open.pop();
    this.targets.pop();
    if (depth === 2) this.inNews = false;
    if (depth === 0) {
      this.rootClosed = true;
      this.parser?.pause();
    }
    if (depth !== 1 || !this.entry || this.failure) return;
    const entry = this.entry;
    this.entry = null;
    if (this.full) return;
    if (this.kind === "urlset") this.entries.urlEntry(entry);
    else this.entries.sitemapEntry(entry);
    this.full = this.entries.full;
    if (this.full) this.parser?.pause();
  }
}

function localName(name: string): string {
  // <sit:loc>, <news:title>: the prefix a sitemap uses is its own choice.
  const colon = name.indexOf(":");
  return colon < 0 ? name : name.slice(colon + 1);
}
