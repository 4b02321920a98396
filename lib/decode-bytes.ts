/**
 * Bytes to text, for feeds and for web pages, with one precedence (after feedparser and the HTML
 * standard's sniffing, with RFC 7303 in place of RFC 3023):
 * 1. a byte order mark (UTF-8, UTF-16 LE/BE, UTF-32 LE/BE), or UTF-16/32 recognised from how `<` or `<?` is laid out;
 * 2. the HTTP charset from Content-Type;
 * 3. the document's own declaration: the XML declaration for a feed (a JSON document is UTF-8),
 *    `<meta charset>` or `<meta http-equiv="Content-Type">` for a page;
 * 4. strict UTF-8;
 * 5. windows-1252, which decodes any byte.
 * A declared encoding the platform does not know is skipped. A declared encoding the bytes do not
 * satisfy is skipped for a feed (old feeds often declare UTF-8 over latin-1) and kept, with the bad
 * bytes replaced, for a page (as browsers do: one broken byte must not turn a UTF-8 page into mojibake).
 * C1 control characters in the result are windows-1252 characters mislabelled, and are repaired.
 */

export type DocumentKind = "feed" | "html" | "text";

export type DecodedText = { text: string; encoding: string };

type Profile = {
  /** The encoding the document itself declares, read from its first bytes. */
  declared: (bytes: Uint8Array) => string | null;
  /** What to do when the bytes break the declared (HTTP or in-document) encoding. */
  invalidDeclared: "skip" | "replace";
};

const PROFILES: Record<DocumentKind, Profile> = {
  feed: { declared: (bytes) => (looksLikeJson(bytes) ? "utf-8" : xmlDeclaration(bytes)), invalidDeclared: "skip" },
  html: { declared: metaCharset, invalidDeclared: "replace" },
  // Plain text (robots.txt, text sitemaps) declares nothing of its own: BOM, HTTP charset, UTF-8.
  text: { declared: () => null, invalidDeclared: "replace" },
};

/** Decodes a feed's or a page's bytes, choosing the encoding by BOM, HTTP charset, in-document declaration, UTF-8, windows-1252. */
export function decodeBytes(bytes: Uint8Array, options: { contentType?: string | null; kind: DocumentKind }): DecodedText {
  const decoded = decodeRaw(bytes, options.contentType ?? null, options.kind);
  return { text: repairC1(decoded.text), encoding: decoded.encoding };
}

/** A feed's text and the encoding it was read in. */
export function decodeFeedBytes(bytes: Uint8Array, contentType?: string | null): DecodedText {
  return decodeBytes(bytes, { contentType, kind: "feed" });
}

/** Plain text (robots.txt, a text sitemap), without the NUL characters a database cannot keep. */
export function decodeTextBytes(bytes: Uint8Array, contentType?: string | null): string {
  return decodeBytes(bytes, { contentType, kind: "text" }).text.replace(/\0/g, "");
}

/** A web page's text. */
export function decodeHtmlBytes(bytes: Uint8Array, contentType?: string | null): string {
  return decodeBytes(bytes, { contentType, kind: "html" }).text;
}

/** The WHATWG name of an encoding label, or null when the platform cannot decode it. */
export function canonicalEncoding(label: string | null | undefined): string | null {
  if (!label) return null;
  const clean = label.trim().replace(/^["']|["']$/g, "").toLowerCase();
  if (clean === "utf-32" || clean === "utf-32be" || clean === "ucs-4") return "utf-32be";
  if (clean === "utf-32le") return "utf-32le";
  try {
    return new TextDecoder(clean).encoding;
  } catch {
    return null;
  }
}

/** The charset parameter of a Content-Type header value. */
export function charsetFromContentType(contentType: string | null | undefined): string | null {
  if (!contentType) return null;
  const match = /;\s*charset\s*=\s*("?)([^";\s]+)\1/i.exec(contentType);
  return match ? match[2]! : null;
}

// Node 20's TextDecoder decodes windows-1252 as ISO-8859-1 (bytes 0x80-0x9F come out as C1 controls);
// these are the characters windows-1252 puts there (its five undefined bytes stay as they are).
const HIGH = "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ";

/** Replaces C1 control characters with the windows-1252 characters they stand for (feedparser's "demoronize"). */
export function repairC1(text: string): string {
  return /[\u0080-\u009f]/.test(text) ? text.replace(/[\u0080-\u009f]/g, (c) => HIGH[c.charCodeAt(0) - 0x80] as string) : text;
}

/** One encoding to try, in order: `fatal` ones are skipped when the bytes break them; `skip` bytes (a BOM) are dropped first. */
export type EncodingCandidate = { encoding: string; fatal: boolean; skip: number };

/**
 * The encodings to try on a document, in the precedence above, from its first bytes (`head`: at least
 * its first 4,096 when it is longer): the first that decodes the whole document is its encoding. The
 * last one never fails. Streaming readers (sitemaps) go down this list; decodeBytes does the same at once.
 */
export function encodingCandidates(head: Uint8Array, options: { contentType?: string | null; kind: DocumentKind }): EncodingCandidate[] {
  const profile = PROFILES[options.kind];
  const candidates: EncodingCandidate[] = [];
  const sniffed = sniffBom(head);
  if (sniffed) {
    candidates.push({ encoding: sniffed.encoding, fatal: true, skip: sniffed.skip });
    // Invalid bytes under the BOM's encoding: replace them rather than guess another encoding.
    if (!sniffed.encoding.startsWith("utf-32")) return [...candidates, { encoding: sniffed.encoding, fatal: false, skip: sniffed.skip }];
  }
  const fatal = profile.invalidDeclared === "skip";
  const fromHttp = canonicalEncoding(charsetFromContentType(options.contentType));
  if (fromHttp) candidates.push({ encoding: fromHttp, fatal, skip: 0 });
  const fromDocument = canonicalEncoding(profile.declared(head));
  // A UTF-16/32 declaration without the byte layout to match is wrong: the bytes are 8-bit.
  if (fromDocument && !/^utf-(16|32)/.test(fromDocument)) candidates.push({ encoding: fromDocument, fatal, skip: 0 });
  candidates.push({ encoding: "utf-8", fatal: true, skip: 0 }, { encoding: "windows-1252", fatal: false, skip: 0 });
  return candidates;
}

/** The bytes break the encoding a stream decoder was made for. */
export class EncodingMismatch extends Error {}

/**
 * Decodes a document chunk by chunk in one candidate encoding, C1 characters repaired; `write` and
 * `end` throw EncodingMismatch when the bytes break a fatal candidate (the caller tries the next).
 */
export function createStreamDecoder(candidate: EncodingCandidate): { write(chunk: Uint8Array): string; end(): string } {
  let skip = candidate.skip;
  const decode = candidate.encoding.startsWith("utf-32")
    ? utf32StreamDecoder(candidate.encoding === "utf-32le")
    : textStreamDecoder(candidate);
  return {
    write(chunk) {
      if (skip > 0) {
        const dropped = Math.min(skip, chunk.length);
        skip -= dropped;
        chunk = chunk.subarray(dropped);
      }
      return repairC1(decode(chunk, false));
    },
    end: () => repairC1(decode(new Uint8Array(0), true)),
  };
}

function textStreamDecoder(candidate: EncodingCandidate): (chunk: Uint8Array, last: boolean) => string {
  const decoder = new TextDecoder(candidate.encoding, { fatal: candidate.fatal, ignoreBOM: true });
  return (chunk, last) => {
    try {
      return decoder.decode(chunk, { stream: !last });
    } catch (error) {
      throw new EncodingMismatch(`not ${candidate.encoding}`, { cause: error });
    }
  };
}

// A UTF-32 document whose length is not a multiple of 4 is not UTF-32; a code point out of range becomes U+FFFD.
function utf32StreamDecoder(littleEndian: boolean): (chunk: Uint8Array, last: boolean) => string {
  let carried = new Uint8Array(0);
  return (chunk, last) => {
    const bytes = carried.length > 0 ? concatBytes(carried, chunk) : chunk;
    const whole = bytes.length - (bytes.length % 4);
    carried = bytes.slice(whole);
    if (last && carried.length > 0) throw new EncodingMismatch("not UTF-32: a partial code unit at the end");
    return decodeUtf32(bytes.subarray(0, whole), littleEndian);
  };
}

function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a, 0);
  joined.set(b, a.length);
  return joined;
}

function decodeRaw(bytes: Uint8Array, contentType: string | null, kind: DocumentKind): DecodedText {
  for (const candidate of encodingCandidates(bytes, { contentType, kind })) {
    const text = tryDecode(bytes.subarray(candidate.skip), candidate.encoding, candidate.fatal);
    if (text !== null) return { text, encoding: candidate.encoding };
  }
  throw new Error("unreachable: windows-1252 decodes any byte");
}

type Sniffed = { encoding: string; skip: number } | null;

function sniffBom(b: Uint8Array): Sniffed {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return { encoding: "utf-8", skip: 3 };
  if (b[0] === 0x00 && b[1] === 0x00 && b[2] === 0xfe && b[3] === 0xff) return { encoding: "utf-32be", skip: 4 };
  if (b[0] === 0xff && b[1] === 0xfe && b[2] === 0x00 && b[3] === 0x00) return { encoding: "utf-32le", skip: 4 };
  if (b[0] === 0xfe && b[1] === 0xff) return { encoding: "utf-16be", skip: 2 };
  if (b[0] === 0xff && b[1] === 0xfe) return { encoding: "utf-16le", skip: 2 };
  // No BOM: '<' (or '<?') spelt in 2 or 4 bytes gives the encoding away (XML 1.0 appendix F).
  if (b[0] === 0x00 && b[1] === 0x00 && b[2] === 0x00 && b[3] === 0x3c) return { encoding: "utf-32be", skip: 0 };
  if (b[0] === 0x3c && b[1] === 0x00 && b[2] === 0x00 && b[3] === 0x00) return { encoding: "utf-32le", skip: 0 };
  if (b[0] === 0x00 && b[1] === 0x3c && b[2] === 0x00 && b[3] === 0x3f) return { encoding: "utf-16be", skip: 0 };
  if (b[0] === 0x3c && b[1] === 0x00 && b[2] === 0x3f && b[3] === 0x00) return { encoding: "utf-16le", skip: 0 };
  return null;
}

function decodeUtf32(bytes: Uint8Array, littleEndian: boolean): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parts: string[] = [];
  let chunk: number[] = [];
  for (let i = 0; i + 3 < bytes.length; i += 4) {
    const cp = view.getUint32(i, littleEndian);
    chunk.push(cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ? 0xfffd : cp);
    if (chunk.length === 4096) {
      parts.push(String.fromCodePoint(...chunk));
      chunk = [];
    }
  }
  parts.push(String.fromCodePoint(...chunk));
  return parts.join("");
}

function tryDecode(bytes: Uint8Array, encoding: string, fatal: boolean): string | null {
  try {
    if (encoding === "utf-32be" || encoding === "utf-32le") {
      return bytes.length % 4 === 0 ? decodeUtf32(bytes, encoding === "utf-32le") : null;
    }
    return new TextDecoder(encoding, { fatal, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}

// The declaration is ASCII in every ASCII-compatible encoding; latin1 reads it byte for byte.
const asciiHead = (bytes: Uint8Array, length: number) => new TextDecoder("latin1").decode(bytes.subarray(0, length));

function xmlDeclaration(bytes: Uint8Array): string | null {
  const match = /<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/.exec(asciiHead(bytes, 1024));
  return match ? match[1]! : null;
}

// The HTML standard's pre-scan looks at the first 1,024 bytes; pages in the wild put it a little later.
function metaCharset(bytes: Uint8Array): string | null {
  const head = asciiHead(bytes, 4096);
  const match =
    /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head) ?? /<meta[^>]+content\s*=\s*["'][^"']*charset\s*=\s*([\w.:-]+)/i.exec(head);
  return match?.[1] ?? null;
}

function looksLikeJson(bytes: Uint8Array): boolean {
  for (const b of bytes.subarray(0, 64)) {
    if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) continue;
    return b === 0x7b || b === 0x5b;
  }
  return false;
}
