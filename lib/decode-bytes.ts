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
  const decoded = decodeRaw(bytes, options.contentType ?? null, PROFILES[options.kind]);
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

function decodeRaw(bytes: Uint8Array, contentType: string | null, profile: Profile): DecodedText {
  const sniffed = sniffBom(bytes);
  if (sniffed) {
    const body = bytes.subarray(sniffed.skip);
    const text = tryDecode(body, sniffed.encoding, true);
    if (text !== null) return { text, encoding: sniffed.encoding };
    // Invalid bytes under the BOM's encoding: replace them rather than guess another encoding.
    if (!sniffed.encoding.startsWith("utf-32")) return { text: tryDecode(body, sniffed.encoding, false) as string, encoding: sniffed.encoding };
  }

  const declared: string[] = [];
  const fromHttp = canonicalEncoding(charsetFromContentType(contentType));
  if (fromHttp) declared.push(fromHttp);
  const fromDocument = canonicalEncoding(profile.declared(bytes));
  // A UTF-16/32 declaration without the byte layout to match is wrong: the bytes are 8-bit.
  if (fromDocument && !/^utf-(16|32)/.test(fromDocument)) declared.push(fromDocument);

  for (const encoding of declared) {
    const text = tryDecode(bytes, encoding, profile.invalidDeclared === "skip");
    if (text !== null) return { text, encoding };
  }
  const utf8 = tryDecode(bytes, "utf-8", true);
  if (utf8 !== null) return { text: utf8, encoding: "utf-8" };
  return { text: new TextDecoder("windows-1252").decode(bytes), encoding: "windows-1252" };
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
