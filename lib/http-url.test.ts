import { describe, expect, test } from "vitest";
import { httpUrlOrNull, isHttpProtocol, isHttpUrl } from "~/lib/http-url";

describe("httpUrlOrNull", () => {
  test.each([
    ["https://example.com/a", null, "https://example.com/a"],
    ["  http://example.com  ", null, "http://example.com/"],
    ["/story/x", "https://site.test/", "https://site.test/story/x"],
    ["../up", "https://site.test/a/b/", "https://site.test/a/up"],
    ["javascript:alert(1)", null, null],
    ["java\nscript:alert(1)", "https://site.test/", null],
    ["data:text/html,hi", null, null],
    ["mailto:a@b.c", null, null],
    ["ftp://example.com/", null, null],
    ["/relative-without-base", null, null],
    ["", null, null],
    ["   ", "https://site.test/", null],
    [null, null, null],
    [undefined, "https://site.test/", null],
  ])("%j against %j is %j", (value, base, expected) => {
    expect(httpUrlOrNull(value, base)).toBe(expected);
  });
});

describe("isHttpUrl", () => {
  test.each([
    ["https://example.com", true],
    ["HTTP://EXAMPLE.COM/x", true],
    ["example.com", false],
    ["https:example.com", false],
    ["ftp://example.com", false],
    ["//example.com/x", false],
    ["javascript:alert(1)", false],
    ["https://", false],
    [null, false],
  ])("%j is %j", (value, expected) => {
    expect(isHttpUrl(value)).toBe(expected);
  });

  test("isHttpProtocol looks only at the scheme", () => {
    expect(isHttpProtocol(new URL("https://a.test"))).toBe(true);
    expect(isHttpProtocol(new URL("file:///etc/passwd"))).toBe(false);
  });
});
