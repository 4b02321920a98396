import { repairC1 } from "../windows-1252";

/**
 * Byte decoding for feeds. Precedence (after feedparser, with RFC 7303 in place of RFC 3023):
 * 1. a byte order mark (UTF-8, UTF-16 LE/BE, UTF-32 LE/BE), or UTF-16/32 recognised from how `<?` is laid out;
 * 2. the HTTP charset from Content-Type;
 * 3. the XML declaration's encoding (a JSON document is UTF-8);
 * 4. strict UTF-8;
 * 5. windows-1252, which decodes any byte.
 * A declared encoding that the bytes do not satisfy (or that is unknown) is skipped, not trusted.
 * RFC 3023 made text/xml without a charset us-ascii; RFC 7303 obsoleted that rule, and feeds served
 * that way are overwhelmingly UTF-8 or declare their encoding, so we fall through to the declaration.
 */

export type DecodedFeed = { text: string; encoding: string };

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

function declaredXmlEncoding(bytes: Uint8Array): string | null {
  // The declaration is ASCII in every ASCII-compatible encoding; latin1 reads it byte for byte.
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 1024));
  const match = /<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/.exec(head);
  return match ? match[1]! : null;
}

function looksLikeJson(bytes: Uint8Array): boolean {
  for (const b of bytes.subarray(0, 64)) {
    if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) continue;
    return b === 0x7b || b === 0x5b;
  }
  return false;
}

function tryDecode(bytes: Uint8Array, encoding: string): string | null {
  try {
    if (encoding === "utf-32be" || encoding === "utf-32le") {
      return bytes.length % 4 === 0 ? decodeUtf32(bytes, encoding === "utf-32le") : null;
    }
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** Turns a feed's bytes into text, choosing the encoding by BOM, HTTP charset, XML declaration, UTF-8, windows-1252. */
export function decodeFeedBytes(bytes: Uint8Array, contentType?: string | null): DecodedFeed {
  const decoded = decodeRaw(bytes, contentType);
  // C1 controls never belong in a feed: they are windows-1252 characters mislabelled.
  return { text: repairC1(decoded.text), encoding: decoded.encoding };
}

function decodeRaw(bytes: Uint8Array, contentType?: string | null): DecodedFeed {
  const sniffed = sniffBom(bytes);
  if (sniffed) {
    const body = bytes.subarray(sniffed.skip);
    const text = tryDecode(body, sniffed.encoding);
    if (text !== null) return { text, encoding: sniffed.encoding };
    // Invalid bytes under the BOM's encoding: replace them rather than guess another encoding.
    if (!sniffed.encoding.startsWith("utf-32")) {
      return { text: new TextDecoder(sniffed.encoding, { ignoreBOM: true }).decode(body), encoding: sniffed.encoding };
    }
  }

  const candidates: string[] = [];
  const fromHttp = canonicalEncoding(charsetFromContentType(contentType));
  if (fromHttp) candidates.push(fromHttp);
  if (looksLikeJson(bytes)) {
    candidates.push("utf-8");
  } else {
    const declared = canonicalEncoding(declaredXmlEncoding(bytes));
    // A UTF-16/32 declaration without the byte layout to match is wrong: the bytes are 8-bit.
    if (declared && !/^utf-(16|32)/.test(declared)) candidates.push(declared);
  }
  candidates.push("utf-8");

  for (const encoding of candidates) {
    const text = tryDecode(bytes, encoding);
    if (text !== null) return { text, encoding };
  }
  return { text: new TextDecoder("windows-1252").decode(bytes), encoding: "windows-1252" };
}
