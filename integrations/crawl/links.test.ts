import { describe, expect, test } from "vitest";
import { extractLinks, sameSite } from "./links";

describe("the links of a start page", () => {
  test("are absolute, without fragments, each once, in page order", () => {
    const html = `<html><body>
      <a href="/news/frog">Frog</a>
      <a href="https://weird.example/news/frog#comments">Frog again</a>
      <a href="news/yeti">Yeti</a>
      <a href="https://elsewhere.example/x">Elsewhere</a>
      <a href="mailto:tips@weird.example">Mail</a>
      <a href="javascript:alert(1)">Script</a>
      <a href="/sponsored" rel="sponsored nofollow">Ad</a>
    </body></html>`;
    expect(extractLinks(html, "https://weird.example/section/")).toEqual([
      "https://weird.example/news/frog",
      "https://weird.example/section/news/yeti",
      "https://elsewhere.example/x",
    ]);
  });

  test("resolve against the page's <base href>", () => {
    const html = `<html><head><base href="https://weird.example/archive/"></head><body><a href="2026/frog">Frog</a></body></html>`;
    expect(extractLinks(html, "https://weird.example/")).toEqual(["https://weird.example/archive/2026/frog"]);
  });

  test("of junk are none", () => {
    expect(extractLinks("\u0000\u0001 not html", "https://weird.example/")).toEqual([]);
  });
});

describe("the same site", () => {
  test.each([
    ["https://weird.example/a", "https://www.weird.example/b", true],
    ["https://weird.example/a", "http://weird.example/b", true],
    ["https://weird.example/a", "https://news.weird.example/b", false],
    ["https://weird.example/a", "not a url", false],
  ])("%s and %s: %s", (a, b, expected) => {
    expect(sameSite(a, b)).toBe(expected);
  });
});
