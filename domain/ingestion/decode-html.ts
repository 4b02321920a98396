import { charsetFromContentType } from "./feed/decode";
import { decodeWindows1252, isWindows1252 } from "./windows-1252";

/** Turns an HTML page's bytes into text: BOM, then the HTTP charset, then a <meta> charset, then UTF-8, else windows-1252. */
export function decodeHtmlBytes(bytes: Uint8Array, contentType?: string | null): string {
  const bom = bomEncoding(bytes);
  if (bom) return new TextDecoder(bom.encoding).decode(bytes.subarray(bom.length));
  const declared = charsetFromContentType(contentType) ?? metaCharset(bytes);
  if (declared) {
    const decoded = tryDecode(bytes, declared, false);
    if (decoded !== null) return decoded;
  }
  return tryDecode(bytes, "utf-8", true) ?? decodeWindows1252(bytes);
}

function bomEncoding(bytes: Uint8Array): { encoding: string; length: number } | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: "utf-8", length: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: "utf-16le", length: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: "utf-16be", length: 2 };
  return null;
}

// The HTML standard's pre-scan looks at the first 1,024 bytes; pages in the wild put it a little later.
function metaCharset(bytes: Uint8Array): string | null {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 4096));
  const match =
    /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head) ?? /<meta[^>]+content\s*=\s*["'][^"']*charset\s*=\s*([\w.:-]+)/i.exec(head);
  return match?.[1] ?? null;
}

function tryDecode(bytes: Uint8Array, label: string, fatal: boolean): string | null {
  if (isWindows1252(label)) return decodeWindows1252(bytes);
  try {
    return new TextDecoder(label, { fatal }).decode(bytes);
  } catch {
    return null;
  }
}
