/**
 * Sitemap reading: crawler-commons' sitemap files, read in place from ../shared/corpora, with
 * expectations taken from reading each file; then hostile bodies. Results in docs/crawl-conformance.md.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, test } from "vitest";
import { corpusPath } from "~/test/corpora";
import { parseSitemap, SITEMAP_MAX_URLS, SitemapError, type ParsedSitemap, type SitemapErrorCode } from "./sitemap";

const SITEMAP_URL = "https://www.example.com/sitemap.xml";
const corpusDir = corpusPath("crawler-commons/sitemaps");

type Expected =
  | { error: SitemapErrorCode }
  | { kind: ParsedSitemap["kind"]; urls: number; sitemaps: number; samples?: [index: number, entry: object][] };

const CORPUS: [file: string, expected: Expected][] = [
  // An Atom feed is a valid sitemap for sitemaps.org; feeds go to the feed reader instead.
  ["atom.xml", { error: "NOT_A_SITEMAP" }],
  ["do-not-visit.txt", { kind: "text", urls: 1, sitemaps: 0, samples: [[0, { loc: "http://www.example.com/do-not-visit-here", lastmod: null, news: null }]] }],
  ["sitemap-with-bom.txt", { kind: "text", urls: 2, sitemaps: 0, samples: [[0, { loc: "http://www.domain.com/page1.html" }]] }],
  ["sitemap.badns.xml", { kind: "urlset", urls: 2, sitemaps: 0, samples: [[1, { loc: "http://www.example.com/2", lastmod: null }]] }],
  [
    "sitemap.index.xml",
    {
      kind: "index",
      urls: 0,
      sitemaps: 15,
      samples: [
        [0, { loc: "https://example.com/sitemap.jss?portalCode=10260&lang=en", lastmod: null }],
        [14, { loc: "https://example.com/sitemap.jss?portalCode=10570&lang=en" }],
      ],
    },
  ],
  ["sitemap.ns.xml", { kind: "urlset", urls: 2, sitemaps: 0, samples: [[0, { loc: "http://www.example.com/1" }]] }],
  ["sitemap.txt", { kind: "text", urls: 2, sitemaps: 0, samples: [[1, { loc: "http://www.domain.com/page2.html" }]] }],
  ["sitemap.txt.gz", { kind: "text", urls: 5, sitemaps: 0, samples: [[1, { loc: "http://www.example.com/catalog?item=12&desc=vacation_hawaii" }]] }],
  [
    "xmlSitemap.gz",
    {
      kind: "urlset",
      urls: 5,
      sitemaps: 0,
      samples: [
        [0, { loc: "http://www.example.com/", lastmod: "2005-01-01T00:00:00.000Z" }],
        [1, { loc: "http://www.example.com/catalog?item=12&desc=vacation_hawaii", lastmod: null }],
        [3, { loc: "http://www.example.com/catalog?item=74&desc=vacation_newfoundland", lastmod: "2004-12-23T18:00:15.000Z" }],
      ],
    },
  ],
  [
    "extension/hebdenbridgetimes-articles-sitemap.xml",
    {
      kind: "urlset",
      urls: 74,
      sitemaps: 0,
      samples: [
        [0, { loc: "http://www.hebdenbridgetimes.co.uk/news/local/video-tour-de-yorkshire-in-calderdale-1-7242580", lastmod: "2015-05-03T17:51:50.000Z", news: null }],
      ],
    },
  ],
  ["extension/pagemaps-sitemap.xml", { kind: "urlset", urls: 2, sitemaps: 0, samples: [[1, { loc: "http://www.example.com/bar" }]] }],
  [
    "extension/shinpaideshou-news-sitemap.xml",
    {
      kind: "urlset",
      urls: 3,
      sitemaps: 0,
      samples: [
        [
          0,
          {
            loc: "https://shinpaideshou.wordpress.com/2017/04/25/job-opening-reischauer-policy-research-fellow/",
            news: { title: "Job Opening: Reischauer Policy Research Fellow", publicationDate: "2017-04-25T10:00:36.000Z" },
          },
        ],
      ],
    },
  ],
  // The page's <loc>, never an <image:loc>.
  ["extension/sitemap-images.xml", { kind: "urlset", urls: 1, sitemaps: 0, samples: [[0, { loc: "http://www.example.com/images/some_image_landing_page.html" }]] }],
  ["extension/sitemap-links.xml", { kind: "urlset", urls: 3, sitemaps: 0, samples: [[2, { loc: "http://www.example.com/schweiz-deutsch/" }]] }],
  ["extension/sitemap-mobile.xml", { kind: "urlset", urls: 3, sitemaps: 0, samples: [[2, { loc: "http://www.example.com/no-mobile/" }]] }],
  [
    "extension/sitemap-news.xml",
    {
      kind: "urlset",
      urls: 2,
      sitemaps: 0,
      samples: [
        [0, { loc: "http://www.example.org/business/article55.html", news: { title: "Companies A, B in Merger Talks", publicationDate: "2008-12-23T00:00:00.000Z" } }],
        [1, { loc: "http://www.example.org/empty_news_name.html", news: { title: "Test empty news attributes", publicationDate: "2025-05-27T00:00:00.000Z" } }],
      ],
    },
  ],
  // <loc> after <video:video>.
  ["extension/sitemap-videos-tvshow.xml", { kind: "urlset", urls: 1, sitemaps: 0, samples: [[0, { loc: "https://example.org/my-tv-show/23/13/", news: null }]] }],
  ["extension/sitemap-videos.xml", { kind: "urlset", urls: 3, sitemaps: 0, samples: [[2, { loc: "http://www.example.com/videos/some_video_landing_page-3.html" }]] }],
];

function corpusFiles(dir: string, prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? corpusFiles(path.join(dir, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`],
  );
}

function errorOf(run: () => unknown): SitemapError {
  try {
    run();
  } catch (error) {
    if (error instanceof SitemapError) return error;
    throw error;
  }
  throw new Error("expected a SitemapError");
}

const parse = (body: string | Buffer, options: Partial<Parameters<typeof parseSitemap>[1]> = {}) =>
  parseSitemap(typeof body === "string" ? Buffer.from(body) : body, { url: SITEMAP_URL, ...options });

const urlset = (inner: string) => `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${inner}</urlset>`;

describe("crawler-commons sitemap files", () => {
  test("every file in the corpus has an expectation", () => {
    expect(CORPUS.map(([file]) => file).sort()).toEqual(corpusFiles(corpusDir).sort());
  });

  test.each(CORPUS)("%s", (file, expected) => {
    const body = readFileSync(path.join(corpusDir, file));
    if ("error" in expected) {
      expect(errorOf(() => parse(body)).code).toBe(expected.error);
      return;
    }
    const result = parse(body);
    expect(result.kind).toBe(expected.kind);
    expect(result.urls).toHaveLength(expected.urls);
    expect(result.sitemaps).toHaveLength(expected.sitemaps);
    expect(result.warnings).toEqual([]);
    const entries = expected.kind === "index" ? result.sitemaps : result.urls;
    for (const [index, entry] of expected.samples ?? []) expect(entries[index]).toMatchObject(entry);
  });
});

describe("reading sitemaps as found in the wild", () => {
  test("gzip is recognised by its bytes, whatever the URL and content type say", () => {
    const body = gzipSync(urlset("<url><loc>https://www.example.com/a</loc></url>"));
    expect(parse(body, { contentType: "text/xml; charset=utf-8" }).urls.map((u) => u.loc)).toEqual(["https://www.example.com/a"]);
  });

  test("locations are trimmed, entity-decoded and resolved against the sitemap URL", () => {
    const result = parse(
      urlset(
        [
          "<url><loc>\n  https://www.example.com/a?x=1&amp;y=2  \n</loc></url>",
          "<url><loc>https://www.example.com/b?x=1&#38;y=&#x32;&apos;</loc></url>",
          "<url><loc><![CDATA[https://www.example.com/c?q=a&amp;b]]></loc></url>",
          "<url><loc>/relative/d</loc></url>",
        ].join(""),
      ),
    );
    expect(result.urls.map((u) => u.loc)).toEqual([
      "https://www.example.com/a?x=1&y=2",
      "https://www.example.com/b?x=1&y=2%27",
      "https://www.example.com/c?q=a&amp;b",
      "https://www.example.com/relative/d",
    ]);
  });

  test("only http(s) locations are kept; the rest are counted in a warning", () => {
    const result = parse(
      urlset(
        [
          "<url><loc>ftp://www.example.com/a</loc></url>",
          "<url><loc>javascript:alert(1)</loc></url>",
          "<url><loc>mailto:editor@example.com</loc></url>",
          "<url><loc>https://www.example.com/ok</loc></url>",
          "<url><lastmod>2024-01-01</lastmod></url>",
        ].join(""),
      ),
    );
    expect(result.urls.map((u) => u.loc)).toEqual(["https://www.example.com/ok"]);
    expect(result.warnings).toEqual(["3 locations that are not http(s) URLs skipped", "1 entries without a location skipped"]);
  });

  test("namespace prefixes and a missing namespace make no difference", () => {
    const prefixed = parse('<s:urlset xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9"><s:url><s:loc>https://www.example.com/p</s:loc><s:lastmod>2024-03-01T10:00:00+02:00</s:lastmod></s:url></s:urlset>');
    const bare = parse("<urlset><url><loc>https://www.example.com/p</loc><lastmod>2024-03-01T10:00:00+02:00</lastmod></url></urlset>");
    expect(prefixed).toEqual(bare);
    expect(bare.urls).toEqual([{ loc: "https://www.example.com/p", lastmod: "2024-03-01T08:00:00.000Z", news: null }]);
  });

  test("a byte order mark and whitespace before the XML are tolerated", () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`\n\n  ${urlset("<url><loc>https://www.example.com/a</loc></url>")}`)]);
    expect(parse(body).urls).toHaveLength(1);
  });

  test("a sitemap index lists sitemaps with their lastmod", () => {
    const result = parse('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://www.example.com/s1.xml.gz</loc><lastmod>2024-05-06</lastmod></sitemap></sitemapindex>');
    expect(result).toEqual({ kind: "index", urls: [], sitemaps: [{ loc: "https://www.example.com/s1.xml.gz", lastmod: "2024-05-06T00:00:00.000Z" }], warnings: [] });
  });

  test("a news entry without a title or date keeps the news block with nulls", () => {
    const result = parse(urlset("<url><loc>https://www.example.com/n</loc><news:news><news:publication_date>not a date</news:publication_date></news:news></url>"));
    expect(result.urls[0]!.news).toEqual({ title: null, publicationDate: null });
  });

  test("a text sitemap skips blank and non-http lines", () => {
    const result = parse("https://www.example.com/a\n\n   \r\n/relative\nftp://www.example.com/b\nhttps://www.example.com/c\r\n", { contentType: "text/plain" });
    expect(result.urls.map((u) => u.loc)).toEqual(["https://www.example.com/a", "https://www.example.com/c"]);
    expect(result.warnings).toEqual(["2 lines that are not http(s) URLs skipped"]);
  });
});

describe("what is not a sitemap", () => {
  test.each([
    ["an HTML page", "<!DOCTYPE html><html><head><title>Not found</title></head><body>Oops</body></html>", null],
    ["an HTML page without a doctype", "<html><body><p>Oops</p></body></html>", "text/html"],
    ["an RSS feed", '<?xml version="1.0"?><rss version="2.0"><channel><title>x</title></channel></rss>', null],
    ["some other XML", "<?xml version=\"1.0\"?><config><loc>https://www.example.com/</loc></config>", null],
    ["text served as HTML", "https://www.example.com/a\n", "text/html; charset=utf-8"],
    ["text with no URL", "hello world\nthis is not a sitemap\n", null],
    ["an empty body", "", null],
    ["garbage bytes", Buffer.from([0x00, 0x01, 0x02, 0xff, 0xfe, 0x10, 0x20]), null],
  ])("%s", (_name, body, contentType) => {
    expect(errorOf(() => parse(body, { contentType })).code).toBe("NOT_A_SITEMAP");
  });
});

describe("hostile sitemaps stay bounded", () => {
  test("a gzip bomb (1 GiB inflated) fails with TOO_LARGE at the default cap", () => {
    const member = gzipSync(Buffer.alloc(1024 * 1024, 0x20), { level: 9 });
    const bomb = Buffer.concat(Array.from({ length: 1024 }, () => member));
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const started = performance.now();
    expect(errorOf(() => parse(bomb)).code).toBe("TOO_LARGE");
    expect(performance.now() - started).toBeLessThan(5000);
  });

  test("inflating stops at maxBytes", () => {
    const body = gzipSync(urlset(`<url><loc>https://www.example.com/a</loc></url>${" ".repeat(200_000)}`));
    expect(errorOf(() => parse(body, { maxBytes: 100_000 })).code).toBe("TOO_LARGE");
    expect(parse(body, { maxBytes: 300_000 }).urls).toHaveLength(1);
  });

  test("an uncompressed body over maxBytes fails with TOO_LARGE", () => {
    expect(errorOf(() => parse(urlset(" ".repeat(2_000)), { maxBytes: 1_000 })).code).toBe("TOO_LARGE");
  });

  test("broken gzip fails with BAD_GZIP", () => {
    const whole = gzipSync(urlset("<url><loc>https://www.example.com/a</loc></url>"));
    expect(errorOf(() => parse(Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xde, 0xad, 0xbe, 0xef]))).code).toBe("BAD_GZIP");
    expect(errorOf(() => parse(whole.subarray(0, whole.length - 12))).code).toBe("BAD_GZIP");
  });

  test("an entity bomb (billion laughs) is not expanded and returns quickly", () => {
    let doctype = '<!DOCTYPE urlset [<!ENTITY lol0 "lol">';
    for (let i = 1; i <= 9; i++) doctype += `<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`;
    doctype += "]>";
    const body = `<?xml version="1.0"?>${doctype}<urlset><url><loc>&lol9;</loc></url><url><loc>https://www.example.com/&lol1;</loc></url><url><loc>https://www.example.com/ok</loc></url></urlset>`;
    const started = performance.now();
    const result = parse(body);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(result.urls.map((u) => u.loc)).toEqual(["https://www.example.com/ok"]);
    expect(result.warnings).toEqual(["2 locations with an undefined entity reference skipped"]);
  });

  test("an external entity (XXE) is refused, never read", () => {
    const body = '<?xml version="1.0"?><!DOCTYPE urlset [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><urlset><url><loc>https://www.example.com/&xxe;</loc></url></urlset>';
    expect(errorOf(() => parse(body)).code).toBe("NOT_A_SITEMAP");
  });

  test("60,000 URLs are cut at SITEMAP_MAX_URLS, with a warning saying how many were dropped", () => {
    const entries: string[] = [];
    for (let i = 0; i < 60_000; i++) entries.push(`<url><loc>https://www.example.com/p/${i}</loc></url>`);
    const result = parse(urlset(entries.join("\n")));
    expect(result.urls).toHaveLength(SITEMAP_MAX_URLS);
    expect(result.urls.at(-1)!.loc).toBe(`https://www.example.com/p/${SITEMAP_MAX_URLS - 1}`);
    expect(result.warnings).toEqual(["10000 entries beyond the limit of 50000 dropped"]);
  });

  test("maxUrls caps a text sitemap too", () => {
    const result = parse("https://www.example.com/1\nhttps://www.example.com/2\nhttps://www.example.com/3\n", { maxUrls: 2 });
    expect(result.urls).toHaveLength(2);
    expect(result.warnings).toEqual(["1 entries beyond the limit of 2 dropped"]);
  });

  test("20,000 URLs with lastmod parse in well under a second", () => {
    const entries: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      entries.push(`<url><loc>https://www.example.com/story/${i}?ref=a&amp;b=c</loc><lastmod>2024-06-01T12:00:00+00:00</lastmod><changefreq>daily</changefreq></url>`);
    }
    const body = Buffer.from(urlset(entries.join("\n")));
    parse(body);
    const started = performance.now();
    const result = parse(body);
    const elapsed = performance.now() - started;
    expect(result.urls).toHaveLength(20_000);
    expect(elapsed).toBeLessThan(1000);
  });
});
