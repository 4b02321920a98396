import { describe, expect, test } from "vitest";
import { decodeHtmlBytes } from "./decode-html";

const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

describe("decoding an HTML page", () => {
  test.each([
    { why: "UTF-8 without any declaration", bytes: new TextEncoder().encode("<p>Café ✓</p>"), type: null, text: "<p>Café ✓</p>" },
    { why: "a UTF-8 byte order mark", bytes: Uint8Array.from([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("é")]), type: "text/html; charset=iso-8859-1", text: "é" },
    { why: "the HTTP charset", bytes: latin1("caf\u00e9"), type: "text/html; charset=ISO-8859-1", text: "café" },
    { why: "a <meta charset>", bytes: latin1('<meta charset="windows-1252"><p>\u0093quoted\u0094</p>'), type: "text/html", text: '<meta charset="windows-1252"><p>“quoted”</p>' },
    { why: "an http-equiv content type", bytes: latin1('<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">\u00e9'), type: null, text: '<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">é' },
    { why: "invalid UTF-8 falling back to windows-1252", bytes: latin1("na\u00efve \u0080"), type: null, text: "naïve €" },
    { why: "an unknown declared charset", bytes: new TextEncoder().encode("ok é"), type: "text/html; charset=x-made-up", text: "ok é" },
  ])("$why", ({ bytes, type, text }) => {
    expect(decodeHtmlBytes(bytes, type)).toBe(text);
  });
});

describe("windows-1252", () => {
  test("bytes 0x80-0x9f decode to the characters windows-1252 puts there", async () => {
    const { decodeWindows1252 } = await import("./windows-1252");
    expect(decodeWindows1252(Uint8Array.from([0x80, 0x93, 0x94, 0x99, 0x81, 0xe9, 0x41]))).toBe("€“”™\u0081éA");
  });
});
