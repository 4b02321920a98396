import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, test } from "vitest";
import {
  absoluteUrl,
  buildNewsSitemap,
  buildRobotsTxt,
  buildSitemapIndex,
  buildUrlset,
  w3cDateTime,
} from "./sitemap";

const SITE = "https://oddwire.test";
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@", isArray: (name) => name === "url" || name === "sitemap" });

// Parses a sitemap the way a crawler would, after checking it is well-formed XML.
function read(xml: string): Record<string, Record<string, unknown>> {
  expect(XMLValidator.validate(xml)).toBe(true);
  return parser.parse(xml) as Record<string, Record<string, unknown>>;
}

describe("XML dates", () => {
  test("dates are W3C datetimes in UTC, to the second", () => {
    expect(w3cDateTime(new Date("2025-03-04T05:06:07.890+02:00"))).toBe("2025-03-04T03:06:07Z");
  });

  test("dates are written as toISOString writes them, without milliseconds, across leap years, centuries, eras and edges", () => {
    const asIso = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, "Z");
    const edges = [
      "1970-01-01T00:00:00.000Z", "1969-12-31T23:59:59.999Z", "2000-02-29T12:00:00.000Z", "1900-02-28T23:59:59.000Z",
      "1900-03-01T00:00:00.000Z", "2024-12-31T23:59:59.999Z", "2100-03-01T00:00:00.000Z", "1600-02-29T06:07:08.000Z",
      "0000-01-01T00:00:00.000Z", "0001-03-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z", "0400-02-29T00:00:00.000Z",
    ].map((text) => new Date(text));
    // Beyond four-digit years toISOString writes six digits and a sign, and so does this.
    const beyond = [new Date("+010000-01-01T00:00:00.000Z"), new Date("-000001-12-31T23:59:59.000Z")];
    // A fixed sequence spread over the whole four-digit range, each to the millisecond.
    const spread = Array.from({ length: 5_000 }, (_, i) => new Date(-62_167_219_200_000 + ((i * 2_654_435_761) % 10_000) * 31_556_952_000 + ((i * 40_503) % 86_400_000)));
    for (const date of [...edges, ...beyond, ...spread]) expect(w3cDateTime(date)).toBe(asIso(date));
    expect(w3cDateTime(beyond[0]!)).toBe("+010000-01-01T00:00:00Z");
    expect(() => w3cDateTime(new Date(Number.NaN))).toThrow(RangeError);
  });

  test.each([
    ["/demo/goat.svg", `${SITE}/demo/goat.svg`],
    ["https://cdn.example/a.png", "https://cdn.example/a.png"],
    ["//cdn.example/a.png", "https://cdn.example/a.png"],
    ["javascript:alert(1)", null],
    ["data:image/png;base64,AAAA", null],
    ["http://[bad", null],
  ])("the absolute URL of %s is %s", (location, expected) => {
    expect(absoluteUrl(SITE, location)).toBe(expected);
  });
});

describe("a sitemap index", () => {
  test("matches the golden document for a small fixed input", () => {
    const xml = buildSitemapIndex({
      siteUrl: SITE,
      sitemaps: [{ loc: `${SITE}/sitemaps/pages.xml` }, { loc: "/sitemaps/stories/1.xml", lastmod: new Date("2025-03-04T05:06:07Z") }],
    });
    expect(xml).toBe(`<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap>
    <loc>https://oddwire.test/sitemaps/pages.xml</loc>
  </sitemap>
  <sitemap>
    <loc>https://oddwire.test/sitemaps/stories/1.xml</loc>
    <lastmod>2025-03-04T05:06:07Z</lastmod>
  </sitemap>
</sitemapindex>
`);
    expect(read(xml).sitemapindex?.sitemap).toHaveLength(2);
  });
});

describe("a urlset sitemap", () => {
  test("matches the golden document for a small fixed input", () => {
    const xml = buildUrlset({
      urls: [{ loc: `${SITE}/` }, { loc: `${SITE}/story/goat`, lastmod: new Date("2025-03-04T05:06:07.123Z") }],
    });
    expect(xml).toBe(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url>
    <loc>https://oddwire.test/</loc>
  </url>
  <url>
    <loc>https://oddwire.test/story/goat</loc>
    <lastmod>2025-03-04T05:06:07Z</lastmod>
  </url>
</urlset>
`);
  });

  test("escapes ampersands and quotes in locations and stays well-formed", () => {
    const loc = `${SITE}/search?q=a&b="c"`;
    const xml = buildUrlset({ urls: [{ loc }] });
    expect(xml).toContain("q=a&amp;b=&quot;c&quot;");
    expect(read(xml).urlset?.url).toEqual([{ loc }]);
  });

  test("with no URLs is still a valid, empty urlset", () => {
    expect(read(buildUrlset({ urls: [] })).urlset).toMatchObject({ "@xmlns": "http://www.sitemaps.org/schemas/sitemap/0.9" });
  });
});

describe("a Google News sitemap", () => {
  test("matches the golden document for a small fixed input", () => {
    const xml = buildNewsSitemap({
      siteUrl: SITE,
      publicationName: "Oddwire",
      language: "en",
      items: [{ loc: "/story/goat", title: "Goat elected mayor", publishDate: new Date("2025-03-04T05:06:07Z") }],
    });
    expect(xml).toBe(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
  <url>
    <loc>https://oddwire.test/story/goat</loc>
    <news:news>
      <news:publication>
        <news:name>Oddwire</news:name>
        <news:language>en</news:language>
      </news:publication>
      <news:publication_date>2025-03-04T05:06:07Z</news:publication_date>
      <news:title>Goat elected mayor</news:title>
    </news:news>
  </url>
</urlset>
`);
  });

  test("escapes hostile titles and drops illegal characters, reading back as the title", () => {
    const title = `Cats & <dogs> "quoted" ]]>\u0001`;
    const xml = buildNewsSitemap({
      siteUrl: SITE,
      publicationName: "Oddwire",
      language: "en",
      items: [{ loc: `${SITE}/story/cats`, title, publishDate: new Date("2025-03-04T05:06:07Z") }],
    });
    const url = (read(xml).urlset?.url as Record<string, Record<string, unknown>>[])[0];
    expect(url?.["news:news"]?.["news:title"]).toBe(`Cats & <dogs> "quoted" ]]>`);
  });
});

describe("robots.txt", () => {
  test("lets crawlers read the site but not the admin area or the API, and points at the sitemap", () => {
    expect(buildRobotsTxt({ siteUrl: SITE })).toBe(
      ["User-agent: *", "Allow: /", "Disallow: /admin", "Disallow: /api/", "", `Sitemap: ${SITE}/sitemap.xml`, ""].join("\n"),
    );
  });
});
