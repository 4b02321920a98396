import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, test } from "vitest";
import { imageUrlHash } from "~/lib/story-image";
import { buildRss, imageType, type RssChannel, type RssItem } from "./rss";

const SITE = "https://oddwire.test";

function story(overrides: Partial<RssItem> = {}): RssItem {
  return {
    id: 7,
    title: "Goat elected mayor",
    summary: "A goat won the vote.",
    imageUrl: null,
    sourceUrl: "https://news.example/goat",
    sourceName: "Daily Example",
    category: "Animals",
    slug: "goat-elected-mayor",
    publishDate: "2025-03-04T05:06:07.000Z",
    ...overrides,
  };
}

function channel(items: RssItem[], overrides: Partial<RssChannel> = {}): RssChannel {
  return {
    siteUrl: SITE,
    title: "Oddwire",
    description: "Weird news",
    selfUrl: `${SITE}/rss.xml`,
    link: `${SITE}/`,
    items,
    ...overrides,
  };
}

// htmlEntities: character references (&#10; for a line break) are read as a reader reads them.
const parser = new XMLParser({ ignoreAttributes: false, htmlEntities: true, attributeNamePrefix: "@", isArray: (name) => name === "item" });

// Parses a feed the way a reader would, after checking it is well-formed XML.
function read(xml: string) {
  expect(XMLValidator.validate(xml)).toBe(true);
  return parser.parse(xml) as { rss: { "@version": string; channel: Record<string, unknown> & { item?: Record<string, unknown>[] } } };
}

describe("an RSS feed", () => {
  test("matches the golden document for a small fixed input", () => {
    const xml = buildRss(
      channel([
        story({ imageUrl: "/demo/goat.svg" }),
        story({
          id: 8,
          title: "Moon made of cheese",
          summary: null,
          sourceName: null,
          sourceUrl: "https://space.example/moon",
          category: "Space",
          slug: "moon-made-of-cheese",
          publishDate: "2025-03-03T00:00:00.000Z",
          imageUrl: "https://cdn.example/moon.JPG?w=800",
        }),
      ]),
    );
    expect(xml).toBe(`<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>Oddwire</title>
    <link>https://oddwire.test/</link>
    <description>Weird news</description>
    <language>en</language>
    <lastBuildDate>Tue, 04 Mar 2025 05:06:07 GMT</lastBuildDate>
    <atom:link href="https://oddwire.test/rss.xml" rel="self" type="application/rss+xml"/>
    <item>
      <title>Goat elected mayor</title>
      <link>https://oddwire.test/story/goat-elected-mayor</link>
      <guid isPermaLink="true">https://oddwire.test/story/goat-elected-mayor</guid>
      <pubDate>Tue, 04 Mar 2025 05:06:07 GMT</pubDate>
      <description>A goat won the vote.</description>
      <category>Animals</category>
      <source url="https://news.example/goat">Daily Example</source>
      <enclosure url="https://oddwire.test/img/7/${imageUrlHash("/demo/goat.svg")}/1200.jpg" type="image/jpeg" length="0"/>
    </item>
    <item>
      <title>Moon made of cheese</title>
      <link>https://oddwire.test/story/moon-made-of-cheese</link>
      <guid isPermaLink="true">https://oddwire.test/story/moon-made-of-cheese</guid>
      <pubDate>Mon, 03 Mar 2025 00:00:00 GMT</pubDate>
      <category>Space</category>
      <source url="https://space.example/moon">space.example</source>
      <enclosure url="https://oddwire.test/img/8/8a823ab9/1200.jpg" type="image/jpeg" length="0"/>
    </item>
  </channel>
</rss>
`);
  });

  test("escapes hostile text everywhere so the document stays well-formed and reads back unchanged", () => {
    const hostile = `Cats & <dogs> "quoted" 'single' ]]>`;
    const xml = buildRss(
      channel(
        [
          story({
            title: hostile,
            summary: `<script>alert("x")</script> & more`,
            category: "Q&A <odd>",
            sourceName: `"Quotes" & Co`,
            sourceUrl: "https://news.example/a?b=1&c=2",
            imageUrl: `https://cdn.example/i.png?a=1&b="2"`,
          }),
        ],
        { title: hostile, description: hostile, selfUrl: `${SITE}/rss.xml?x=1&y=2` },
      ),
    );
    expect(xml).not.toContain("<dogs>");
    expect(xml).not.toContain("<script>");
    expect(xml).not.toContain("]]>");
    const { rss } = read(xml);
    const item = rss.channel.item?.[0];
    expect(rss.channel.title).toBe(hostile);
    expect(rss.channel.description).toBe(hostile);
    expect(rss.channel["atom:link"]).toMatchObject({ "@href": `${SITE}/rss.xml?x=1&y=2` });
    expect(item).toMatchObject({
      title: hostile,
      description: `<script>alert("x")</script> & more`,
      category: "Q&A <odd>",
      source: { "#text": `"Quotes" & Co`, "@url": "https://news.example/a?b=1&c=2" },
      enclosure: { "@url": `${SITE}/img/7/${imageUrlHash(`https://cdn.example/i.png?a=1&b="2"`)}/1200.jpg`, "@type": "image/jpeg" },
    });
  });

  test("drops characters XML 1.0 cannot hold and keeps tabs, newlines and emoji", () => {
    const xml = buildRss(channel([story({ title: "Bell\u0007 null\u0000 esc\u001b lone\uD800 \uFFFE ok\tline\n😀 é" })]));
    const { rss } = read(xml);
    expect(rss.channel.item?.[0]?.title).toBe("Bell null esc lone  ok\tline\n😀 é");
  });

  test("links items to the story page on the site and marks the guid as a permalink", () => {
    const { rss } = read(buildRss(channel([story({ slug: "a-b" })])));
    expect(rss.channel.item?.[0]).toMatchObject({
      link: `${SITE}/story/a-b`,
      guid: { "#text": `${SITE}/story/a-b`, "@isPermaLink": "true" },
    });
  });

  test("has no enclosure without an image, and none for an image that is not http(s)", () => {
    const { rss } = read(buildRss(channel([story({ imageUrl: null }), story({ imageUrl: "javascript:alert(1)" })])));
    expect(rss.channel.item?.map((i) => i.enclosure)).toEqual([undefined, undefined]);
  });

  test("points a picture from another site at the site's own 1200 px JPEG of it, never at the other site", () => {
    const photo = "https://cdn.example/photos/goat.webp";
    const xml = buildRss(channel([story({ id: 42, imageUrl: photo })]));
    expect(xml).not.toContain("cdn.example");
    expect(read(xml).rss.channel.item?.[0]?.enclosure).toEqual({ "@url": `${SITE}/img/42/${imageUrlHash(photo)}/1200.jpg`, "@type": "image/jpeg", "@length": "0" });
  });

  test("gives the site's own images as their 1200 px JPEG variant too", () => {
    const { rss } = read(buildRss(channel([story({ imageUrl: "/demo/goat.svg" }), story({ id: 9, imageUrl: "demo/cat.png" })])));
    expect(rss.channel.item?.map((i) => (i.enclosure as Record<string, string>)["@url"])).toEqual([
      `${SITE}/img/7/${imageUrlHash("/demo/goat.svg")}/1200.jpg`,
      `${SITE}/img/9/${imageUrlHash("demo/cat.png")}/1200.jpg`,
    ]);
  });

  test("has no source for a story whose link fell back to '#', and no pubDate or description when unknown", () => {
    const { rss } = read(buildRss(channel([story({ sourceUrl: "#", publishDate: null, summary: "  " })])));
    const item = rss.channel.item?.[0];
    expect(item).not.toHaveProperty("source");
    expect(item).not.toHaveProperty("pubDate");
    expect(item).not.toHaveProperty("description");
  });

  test("dates the channel by its newest story, or by an explicit build date, and leaves it out when empty", () => {
    const items = [story({ publishDate: "2025-01-01T00:00:00Z" }), story({ publishDate: "2025-02-01T00:00:00Z" })];
    expect(read(buildRss(channel(items))).rss.channel.lastBuildDate).toBe("Sat, 01 Feb 2025 00:00:00 GMT");
    const explicit = buildRss(channel(items, { lastBuildDate: new Date("2025-05-05T05:05:05Z") }));
    expect(read(explicit).rss.channel.lastBuildDate).toBe("Mon, 05 May 2025 05:05:05 GMT");
    const empty = read(buildRss(channel([])));
    expect(empty.rss.channel).not.toHaveProperty("lastBuildDate");
    expect(empty.rss.channel).not.toHaveProperty("item");
    expect(empty.rss["@version"]).toBe("2.0");
  });
});

describe("an image's type", () => {
  test.each([
    ["https://cdn.example/a.jpg", "image/jpeg"],
    ["https://cdn.example/a.JPEG", "image/jpeg"],
    ["https://cdn.example/a.png?w=1", "image/png"],
    ["https://cdn.example/a.gif#x", "image/gif"],
    ["https://cdn.example/a.webp", "image/webp"],
    ["https://cdn.example/a.svg", "image/svg+xml"],
    ["https://cdn.example/photo", "image/jpeg"],
    ["https://cdn.example/photo.php?id=1", "image/jpeg"],
  ])("of %s is %s", (url, type) => {
    expect(imageType(url)).toBe(type);
  });
});
