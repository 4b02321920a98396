import { escapeUTF8 } from "entities";

// Everything outside XML 1.0's Char production: C0 controls except tab, LF and CR, lone
// surrogates, U+FFFE and U+FFFF. No escape can represent them, so they are dropped.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

// Any character escapeXml changes: the five it escapes, tab, LF and CR, and any that may be outside
// XML's Char (a surrogate, even one of a pair, goes the long way). Most text has none, and is
// returned as it is.
const CHANGED_BY_ESCAPE = /[^\u0020\u0021\u0023-\u0025\u0028-\u003B\u003D\u003F-\uD7FF\uE000-\uFFFD]/;

const WHITESPACE_REFS: Record<string, string> = { "\t": "&#9;", "\n": "&#10;", "\r": "&#13;" };

/**
 * Text made safe for XML content and attribute values alike: characters XML cannot carry dropped,
 * & < > " ' escaped, and tab, LF and CR written as character references, because a parser turns
 * them into spaces in an attribute and a CR into LF anywhere; as references they come back as written.
 */
export function escapeXml(text: string): string {
  if (!CHANGED_BY_ESCAPE.test(text)) return text;
  return escapeUTF8(text.replace(NOT_XML_CHAR, "")).replace(/[\t\n\r]/g, (c) => WHITESPACE_REFS[c]!);
}
