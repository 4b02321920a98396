import { describe, expect, test } from "vitest";
import { decodeBytes, decodeHtmlBytes, type DocumentKind } from "./decode-bytes";

const latin1 = (text: string) => new Uint8Array(Buffer.from(text, "latin1"));
const utf8 = (text: string) => new TextEncoder().encode(text);
const utf16le = (text: string) => new Uint8Array(Buffer.from(text, "utf16le"));
const bytes = (...parts: (string | number[])[]) =>
  Uint8Array.from(parts.flatMap((part) => (typeof part === "string" ? [...Buffer.from(part, "latin1")] : part)));
// "日本" in Shift_JIS, "Привет" in windows-1251, "Grüße" in ISO-8859-1.
const SJIS_NIHON = [0x93, 0xfa, 0x96, 0x7b];
const CP1251_PRIVET = [0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2];

type Case = { why: string; kind: DocumentKind; bytes: Uint8Array; type: string | null; encoding: string; text: string };

const cases: Case[] = [
  // Byte order marks and byte layouts
  { why: "a UTF-8 BOM wins over a declared charset", kind: "feed", bytes: Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8("<rss>é</rss>")]), type: "text/xml; charset=iso-8859-1", encoding: "utf-8", text: "<rss>é</rss>" },
  { why: "a UTF-8 BOM wins over a page's HTTP charset", kind: "html", bytes: Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8("é")]), type: "text/html; charset=iso-8859-1", encoding: "utf-8", text: "é" },
  { why: "a UTF-16LE BOM", kind: "feed", bytes: Uint8Array.from([0xff, 0xfe, ...utf16le("<rss>ü</rss>")]), type: null, encoding: "utf-16le", text: "<rss>ü</rss>" },
  { why: "a UTF-16LE BOM on a page", kind: "html", bytes: Uint8Array.from([0xff, 0xfe, ...utf16le("<p>ü</p>")]), type: "text/html", encoding: "utf-16le", text: "<p>ü</p>" },
  { why: "UTF-16LE without a BOM, from the layout of '<?'", kind: "feed", bytes: utf16le('<?xml version="1.0"?><rss/>'), type: null, encoding: "utf-16le", text: '<?xml version="1.0"?><rss/>' },
  { why: "UTF-32BE with a BOM", kind: "feed", bytes: Uint8Array.from([0, 0, 0xfe, 0xff, 0, 0, 0, 0x3c, 0, 0, 0, 0x61, 0, 0, 0, 0x3e]), type: null, encoding: "utf-32be", text: "<a>" },
  // The HTTP charset
  { why: "the HTTP charset beats the XML declaration", kind: "feed", bytes: latin1('<?xml version="1.0" encoding="utf-8"?><a>\xe9</a>'), type: "application/rss+xml; charset=ISO-8859-1", encoding: "windows-1252", text: '<?xml version="1.0" encoding="utf-8"?><a>é</a>' },
  { why: "the HTTP charset of a page", kind: "html", bytes: latin1("caf\xe9"), type: "text/html; charset=ISO-8859-1", encoding: "windows-1252", text: "café" },
  { why: "an unknown HTTP charset is skipped", kind: "html", bytes: utf8("ok é"), type: "text/html; charset=x-made-up", encoding: "utf-8", text: "ok é" },
  // The document's own declaration
  { why: "the XML declaration names a feed's encoding", kind: "feed", bytes: latin1('<?xml version="1.0" encoding="koi8-r"?><a>\xc1</a>'), type: null, encoding: "koi8-r", text: '<?xml version="1.0" encoding="koi8-r"?><a>а</a>' },
  { why: "a JSON feed is UTF-8", kind: "feed", bytes: utf8('{"title":"ö"}'), type: "application/feed+json", encoding: "utf-8", text: '{"title":"ö"}' },
  { why: "a <meta charset> names a page's encoding", kind: "html", bytes: latin1('<meta charset="windows-1252"><p>\x93quoted\x94</p>'), type: "text/html", encoding: "windows-1252", text: '<meta charset="windows-1252"><p>“quoted”</p>' },
  { why: "an http-equiv content type names a page's encoding", kind: "html", bytes: latin1('<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">\xe9'), type: null, encoding: "windows-1252", text: '<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">é' },
  { why: "a <meta charset> declaring UTF-16 over 8-bit bytes is ignored", kind: "html", bytes: utf8('<meta charset="utf-16"><p>é</p>'), type: null, encoding: "utf-8", text: '<meta charset="utf-16"><p>é</p>' },
  // Bytes that break what is declared
  { why: "a feed's declared UTF-8 that the bytes break falls back to windows-1252", kind: "feed", bytes: latin1('<?xml version="1.0" encoding="utf-8"?><a>\xe9</a>'), type: null, encoding: "windows-1252", text: '<?xml version="1.0" encoding="utf-8"?><a>é</a>' },
  { why: "a page's declared UTF-8 is kept, with the broken byte replaced", kind: "html", bytes: Uint8Array.from([...utf8('<meta charset="utf-8"><p>Café '), 0xff, ...utf8("</p>")]), type: null, encoding: "utf-8", text: '<meta charset="utf-8"><p>Café \ufffd</p>' },
  // Nothing declared
  { why: "undeclared valid UTF-8 is UTF-8", kind: "feed", bytes: utf8("<a>ñ</a>"), type: "text/xml", encoding: "utf-8", text: "<a>ñ</a>" },
  { why: "an undeclared UTF-8 page is UTF-8", kind: "html", bytes: utf8("<p>Café ✓</p>"), type: null, encoding: "utf-8", text: "<p>Café ✓</p>" },
  { why: "undeclared invalid UTF-8 falls back to windows-1252", kind: "feed", bytes: latin1("<a>\x93hi\x94</a>"), type: null, encoding: "windows-1252", text: "<a>“hi”</a>" },
  { why: "an undeclared page in invalid UTF-8 falls back to windows-1252", kind: "html", bytes: latin1("na\xefve \x80"), type: null, encoding: "windows-1252", text: "naïve €" },
  { why: "bytes 0x80-0x9f are the characters windows-1252 puts there", kind: "html", bytes: Uint8Array.from([0x80, 0x93, 0x94, 0x99, 0x81, 0xe9, 0x41]), type: null, encoding: "windows-1252", text: "€“”™\u0081éA" },
  { why: "C1 controls spelt in UTF-8 are repaired as mislabelled windows-1252", kind: "feed", bytes: utf8("<a>\u0093hi\u0094</a>"), type: null, encoding: "utf-8", text: "<a>“hi”</a>" },
];

/** A web page's bytes, one case per rung of the ladder: HTTP charset, BOM, <meta>, then UTF-8 or windows-1252. */
const pageCases: Case[] = [
  // 1. The HTTP charset
  { why: "the HTTP charset beats the page's <meta charset>", kind: "html", bytes: bytes('<meta charset="utf-8"><p>', CP1251_PRIVET, "</p>"), type: "text/html; charset=windows-1251", encoding: "windows-1251", text: '<meta charset="utf-8"><p>Привет</p>' },
  { why: "a quoted, upper-case HTTP charset", kind: "html", bytes: bytes("<p>", SJIS_NIHON, "</p>"), type: 'text/html; Charset="Shift_JIS"', encoding: "shift_jis", text: "<p>日本</p>" },
  // 2. A byte order mark
  { why: "a UTF-8 BOM with no HTTP charset", kind: "html", bytes: Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8("<p>“Grüße” — 日本</p>")]), type: "text/html", encoding: "utf-8", text: "<p>“Grüße” — 日本</p>" },
  { why: "a UTF-8 BOM that agrees with the HTTP charset", kind: "html", bytes: Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8("<p>ø</p>")]), type: "text/html; charset=utf-8", encoding: "utf-8", text: "<p>ø</p>" },
  { why: "a UTF-16BE BOM with a <meta> that says nothing else", kind: "html", bytes: Uint8Array.from([0xfe, 0xff, ...Buffer.from("<p>é</p>", "utf16le").swap16()]), type: null, encoding: "utf-16be", text: "<p>é</p>" },
  // 3. The page's own declaration
  { why: "<meta charset=iso-8859-1> (read as windows-1252, as browsers do)", kind: "html", bytes: bytes('<html><head><meta charset="iso-8859-1"><title>Gr\xfc\xdfe \x96 caf\xe9</title>'), type: "text/html", encoding: "windows-1252", text: '<html><head><meta charset="iso-8859-1"><title>Grüße – café</title>' },
  { why: "<meta charset=windows-1251>", kind: "html", bytes: bytes("<meta charset=windows-1251><h1>", CP1251_PRIVET, "</h1>"), type: null, encoding: "windows-1251", text: "<meta charset=windows-1251><h1>Привет</h1>" },
  { why: "<meta http-equiv> naming shift_jis", kind: "html", bytes: bytes('<meta http-equiv="Content-Type" content="text/html; charset=shift_jis"><p>', SJIS_NIHON, "</p>"), type: "text/html", encoding: "shift_jis", text: '<meta http-equiv="Content-Type" content="text/html; charset=shift_jis"><p>日本</p>' },
  { why: "a <meta charset> after 1,024 bytes of head is still found", kind: "html", bytes: bytes(`<head><!--${"x".repeat(1500)}--><meta charset="windows-1251"><p>`, CP1251_PRIVET), type: null, encoding: "windows-1251", text: `<head><!--${"x".repeat(1500)}--><meta charset="windows-1251"><p>Привет` },
  // 4. Nothing declared
  { why: "undeclared bytes that are valid UTF-8 are UTF-8", kind: "html", bytes: utf8("<p>’ “ ” — – é ø ß 日本</p>"), type: "text/html", encoding: "utf-8", text: "<p>’ “ ” — – é ø ß 日本</p>" },
  { why: "undeclared bytes that are not UTF-8 are windows-1252", kind: "html", bytes: bytes("<p>\x93caf\xe9\x94 \x97 \xf8</p>"), type: "text/html", encoding: "windows-1252", text: "<p>“café” — ø</p>" },
];

describe("decoding a document's bytes", () => {
  test.each(cases)("$kind: $why", ({ kind, bytes, type, encoding, text }) => {
    expect(decodeBytes(bytes, { contentType: type, kind })).toEqual({ encoding, text });
  });
});

describe("decoding a web page's bytes (decodeHtmlBytes)", () => {
  test.each(pageCases)("$why", ({ bytes: input, type, encoding, text }) => {
    expect(decodeBytes(input, { contentType: type, kind: "html" })).toEqual({ encoding, text });
    expect(decodeHtmlBytes(input, type)).toBe(text);
  });
});
