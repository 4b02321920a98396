import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { parseFeedDate } from "~/lib/parse-date";
import { FeedParseError, parseFeed } from "~/domain/ingestion/feed/parse-feed";

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
const goldenInputs = readdirSync(fixtures).filter((name) => !name.endsWith(".expected.json"));

describe("golden feeds", () => {
  test.each(goldenInputs)("%s parses to its expected shape", (name) => {
    const bytes = readFileSync(path.join(fixtures, name));
    const expected: unknown = JSON.parse(readFileSync(path.join(fixtures, name.replace(/\.(xml|json)$/, ".expected.json")), "utf8"));
    const url = name.startsWith("windows") ? null : `https://feeds.example.net/${name}`;
    expect(parseFeed({ bytes, url })).toEqual(expected);
  });
});

describe("parseFeed", () => {
  test("an HTML page is not a feed", () => {
    const html = "<!doctype html><html><head><title>Hi</title></head><body><p>Hello</p></body></html>";
    expect(() => parseFeed({ bytes: html })).toThrow(FeedParseError);
    try {
      parseFeed({ bytes: html });
    } catch (error) {
      expect((error as FeedParseError).code).toBe("NOT_A_FEED");
    }
  });

  test("an empty body is not a feed", () => {
    expect(() => parseFeed({ bytes: new Uint8Array() })).toThrow(/empty/);
  });

  test("JSON that is not a JSON Feed is not a feed", () => {
    expect(() => parseFeed({ bytes: '{"hello": "world"}' })).toThrow(FeedParseError);
  });

  test("a feed with no entries parses with an empty item list", () => {
    const feed = parseFeed({ bytes: '<rss version="2.0"><channel><title>Quiet</title></channel></rss>' });
    expect(feed).toMatchObject({ format: "rss", version: "2.0", title: "Quiet", items: [] });
  });

  test("a permalink guid stands in for a missing link, a non-permalink guid does not", () => {
    const feed = parseFeed({
      bytes: `<rss version="2.0"><channel><title>G</title>
        <item><title>a</title><guid>https://g.example/a</guid></item>
        <item><title>b</title><guid isPermaLink="false">https://g.example/b</guid></item></channel></rss>`,
    });
    expect(feed.items.map((i) => i.link)).toEqual(["https://g.example/a", null]);
  });

  test("items keep document order", () => {
    const items = Array.from({ length: 5 }, (_, i) => `<item><title>n${i}</title></item>`).join("");
    const feed = parseFeed({ bytes: `<rss version="2.0"><channel><title>O</title>${items}</channel></rss>` });
    expect(feed.items.map((i) => i.title)).toEqual(["n0", "n1", "n2", "n3", "n4"]);
  });

  test("relative links resolve against the feed URL when the feed names no site", () => {
    const feed = parseFeed({ bytes: `<rss version="2.0"><channel><title>R</title><item><link>/x</link></item></channel></rss>`, url: "https://r.example/feed.xml" });
    expect(feed.items[0]!.link).toBe("https://r.example/x");
  });
});

describe("parseFeedDate", () => {
  test.each([
    ["Tue, 10 Jun 2003 04:00:00 GMT", "2003-06-10T04:00:00.000Z"],
    ["Tue, 10 Jun 2003 04:00:00 +0200", "2003-06-10T02:00:00.000Z"],
    ["10 Jun 2003 04:00 PDT", "2003-06-10T11:00:00.000Z"],
    ["2024-01-02T03:04:05.678-05:30", "2024-01-02T08:34:05.000Z"],
    ["2024-01-02", "2024-01-02T00:00:00.000Z"],
    ["not a date", null],
    ["", null],
  ])("%s is %s", (input, expected) => {
    expect(parseFeedDate(input)).toBe(expected);
  });
});
