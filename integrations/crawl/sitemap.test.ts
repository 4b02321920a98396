/**
 * Sitemap reading: crawler-commons' sitemap files, read in place from ../shared/corpora, with
 * expectations taken from reading each file; then hostile bodies. Results in docs/crawl-conformance.md.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, test } from "vitest";
import { corpusPath } from "~/test/corpora";
import { parseSitemap, readSitemap, SITEMAP_MAX_BYTES, SITEMAP_MAX_URLS, SitemapError, type ParsedSitemap, type SitemapErrorCode } from "./sitemap";

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

async function errorOf(run: () => Promise<unknown>): Promise<SitemapError> {
  try {
    await run();
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
  test("every file in the corpus has an expectation", async () => {
    expect(CORPUS.map(([file]) => file).sort()).toEqual(corpusFiles(corpusDir).sort());
  });

  test.each(CORPUS)("%s", async (file, expected) => {
    const body = readFileSync(path.join(corpusDir, file));
    if ("error" in expected) {
      expect((await errorOf(() => parse(body))).code).toBe(expected.error);
      return;
    }
    const result = await parse(body);
    expect(result.kind).toBe(expected.kind);
    expect(result.urls).toHaveLength(expected.urls);
    expect(result.sitemaps).toHaveLength(expected.sitemaps);
    expect(result.warnings).toEqual([]);
    const entries = expected.kind === "index" ? result.sitemaps : result.urls;
    for (const [index, entry] of expected.samples ?? []) expect(entries[index]).toMatchObject(entry);
  });
});

describe("reading sitemaps as found in the wild", () => {
  test("gzip is recognised by its bytes, whatever the URL and content type say", async () => {
    const body = gzipSync(urlset("<url><loc>https://www.example.com/a</loc></url>"));
    expect((await parse(body, { contentType: "text/xml; charset=utf-8" })).urls.map((u) => u.loc)).toEqual(["https://www.example.com/a"]);
  });

  test("locations are trimmed, entity-decoded and resolved against the sitemap URL", async () => {
    const result = await parse(
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

  test("only http(s) locations are kept; the rest are counted in a warning", async () => {
    const result = await parse(
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

  test("namespace prefixes and a missing namespace make no difference", async () => {
    const prefixed = await parse('<s:urlset xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9"><s:url><s:loc>https://www.example.com/p</s:loc><s:lastmod>2024-03-01T10:00:00+02:00</s:lastmod></s:url></s:urlset>');
    const bare = await parse("<urlset><url><loc>https://www.example.com/p</loc><lastmod>2024-03-01T10:00:00+02:00</lastmod></url></urlset>");
    expect(prefixed).toEqual(bare);
    expect(bare.urls).toEqual([{ loc: "https://www.example.com/p", lastmod: "2024-03-01T08:00:00.000Z", news: null }]);
  });

  test("a byte order mark and whitespace before the XML are tolerated", async () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`\n\n  ${urlset("<url><loc>https://www.example.com/a</loc></url>")}`)]);
    expect((await parse(body)).urls).toHaveLength(1);
  });

  test("a sitemap index lists sitemaps with their lastmod", async () => {
    const result = await parse('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://www.example.com/s1.xml.gz</loc><lastmod>2024-05-06</lastmod></sitemap></sitemapindex>');
    expect(result).toEqual({ kind: "index", urls: [], sitemaps: [{ loc: "https://www.example.com/s1.xml.gz", lastmod: "2024-05-06T00:00:00.000Z" }], warnings: [] });
  });

  test("a news entry without a title or date keeps the news block with nulls", async () => {
    const result = await parse(urlset("<url><loc>https://www.example.com/n</loc><news:news><news:publication_date>not a date</news:publication_date></news:news></url>"));
    expect(result.urls[0]!.news).toEqual({ title: null, publicationDate: null });
  });

  test("a text sitemap skips blank and non-http lines", async () => {
    const result = await parse("https://www.example.com/a\n\n   \r\n/relative\nftp://www.example.com/b\nhttps://www.example.com/c\r\n", { contentType: "text/plain" });
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
  ])("%s", async (_name, body, contentType) => {
    expect((await errorOf(() => parse(body, { contentType }))).code).toBe("NOT_A_SITEMAP");
  });
});

describe("hostile sitemaps stay bounded", () => {
  test("a gzip bomb (1 GiB inflated) fails with TOO_LARGE at the default cap", async () => {
    const member = gzipSync(Buffer.alloc(1024 * 1024, 0x20), { level: 9 });
    const bomb = Buffer.concat(Array.from({ length: 1024 }, () => member));
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const started = performance.now();
    expect((await errorOf(() => parse(bomb))).code).toBe("TOO_LARGE");
    expect(performance.now() - started).toBeLessThan(5000);
  });

  test("inflating stops at maxBytes, and what was read before is kept with the cut recorded", async () => {
    const body = gzipSync(urlset(`<url><loc>https://www.example.com/a</loc></url>${" ".repeat(200_000)}<url><loc>https://www.example.com/b</loc></url>`));
    expect(await parse(body, { maxBytes: 100_000 })).toEqual({
      kind: "urlset",
      urls: [{ loc: "https://www.example.com/a", lastmod: null, news: null }],
      sitemaps: [],
      warnings: ["more than 100000 bytes: read no further than the limit of 100000"],
    });
    expect((await parse(body, { maxBytes: 300_000 })).urls).toHaveLength(2);
  });

  test("an uncompressed body over maxBytes is read up to maxBytes, with the cut recorded", async () => {
    const result = await parse(urlset(`<url><loc>https://www.example.com/a</loc></url>${" ".repeat(2_000)}<url><loc>https://www.example.com/b</loc></url>`), { maxBytes: 1_000 });
    expect(result.urls.map((u) => u.loc)).toEqual(["https://www.example.com/a"]);
    expect(result.warnings).toEqual(["more than 1000 bytes: read no further than the limit of 1000"]);
  });

  test("nothing that is a sitemap within maxBytes fails with TOO_LARGE", async () => {
    expect((await errorOf(() => parse(`${" ".repeat(2_000)}${urlset("")}`, { maxBytes: 1_000 }))).code).toBe("TOO_LARGE");
    expect((await errorOf(() => parse(`${"not a url\n".repeat(200)}https://www.example.com/a\n`, { maxBytes: 1_000 }))).code).toBe("TOO_LARGE");
  });

  test("a sitemap over 50 MB uncompressed keeps every entry within the first 50 MB, and records the cut", async () => {
    const caption = "a".repeat(1_700);
    const entry = (i: number) => `<url><loc>https://www.example.com/p/${i}</loc><image:image><image:caption>${caption}</image:caption></image:image></url>\n`;
    const head = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';
    const parts = [head];
    let size = Buffer.byteLength(head);
    let within = 0;
    for (let i = 0; size < SITEMAP_MAX_BYTES + 1_000_000; i++) {
      parts.push(entry(i));
      size += Buffer.byteLength(entry(i));
      if (size <= SITEMAP_MAX_BYTES) within = i + 1;
    }
    parts.push("</urlset>\n");
    const result = await parse(Buffer.from(parts.join("")));
    expect(within).toBeLessThan(SITEMAP_MAX_URLS);
    expect(result.urls).toHaveLength(within);
    expect(result.urls.at(-1)!.loc).toBe(`https://www.example.com/p/${within - 1}`);
    expect(result.warnings).toEqual([`more than ${SITEMAP_MAX_BYTES} bytes: read no further than the limit of ${SITEMAP_MAX_BYTES}`]);
  }, 60_000);

  test("a gzipped body the fetch cut short at the limit is read as far as it goes, with the cut recorded", async () => {
    const whole = gzipSync(urlset(Array.from({ length: 2_000 }, (_, i) => `<url><loc>https://www.example.com/p/${i}</loc></url>`).join("")));
    const result = await parse(whole.subarray(0, Math.floor(whole.length / 2)), { truncated: true });
    expect(result.urls.length).toBeGreaterThan(0);
    expect(result.urls.length).toBeLessThan(2_000);
    expect(result.urls.at(-1)!.loc).toBe(`https://www.example.com/p/${result.urls.length - 1}`);
    expect(result.warnings).toEqual([`more than ${SITEMAP_MAX_BYTES} bytes: read no further than the limit of ${SITEMAP_MAX_BYTES}`]);
  });

  test("broken gzip fails with BAD_GZIP", async () => {
    const whole = gzipSync(urlset("<url><loc>https://www.example.com/a</loc></url>"));
    expect((await errorOf(() => parse(Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xde, 0xad, 0xbe, 0xef])))).code).toBe("BAD_GZIP");
    expect((await errorOf(() => parse(whole.subarray(0, whole.length - 12)))).code).toBe("BAD_GZIP");
  });

  test("an entity bomb (billion laughs) is not expanded and returns quickly", async () => {
    let doctype = '<!DOCTYPE urlset [<!ENTITY lol0 "lol">';
    for (let i = 1; i <= 9; i++) doctype += `<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`;
    doctype += "]>";
    const body = `<?xml version="1.0"?>${doctype}<urlset><url><loc>&lol9;</loc></url><url><loc>https://www.example.com/&lol1;</loc></url><url><loc>https://www.example.com/ok</loc></url></urlset>`;
    const started = performance.now();
    const result = await parse(body);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(result.urls.map((u) => u.loc)).toEqual(["https://www.example.com/ok"]);
    expect(result.warnings).toEqual(["2 locations with an undefined entity reference skipped"]);
  });

  test("an external entity (XXE) is refused, never read", async () => {
    const body = '<?xml version="1.0"?><!DOCTYPE urlset [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><urlset><url><loc>https://www.example.com/&xxe;</loc></url></urlset>';
    expect((await errorOf(() => parse(body))).code).toBe("NOT_A_SITEMAP");
  });

  test("60,000 URLs give exactly SITEMAP_MAX_URLS, with the cut recorded", async () => {
    const entries: string[] = [];
    for (let i = 0; i < 60_000; i++) entries.push(`<url><loc>https://www.example.com/p/${i}</loc></url>`);
    const result = await parse(urlset(entries.join("\n")));
    expect(result.urls).toHaveLength(SITEMAP_MAX_URLS);
    expect(result.urls.at(-1)!.loc).toBe(`https://www.example.com/p/${SITEMAP_MAX_URLS - 1}`);
    expect(result.warnings).toEqual(["more than 50000 entries: read no further than the limit of 50000"]);
  });

  test("maxUrls caps a text sitemap too", async () => {
    const result = await parse("https://www.example.com/1\nhttps://www.example.com/2\nhttps://www.example.com/3\n", { maxUrls: 2 });
    expect(result.urls).toHaveLength(2);
    expect(result.warnings).toEqual(["more than 2 entries: read no further than the limit of 2"]);
  });

  test("20,000 URLs with lastmod parse in well under a second", async () => {
    const entries: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      entries.push(`<url><loc>https://www.example.com/story/${i}?ref=a&amp;b=c</loc><lastmod>2024-06-01T12:00:00+00:00</lastmod><changefreq>daily</changefreq></url>`);
    }
    const body = Buffer.from(urlset(entries.join("\n")));
    await parse(body);
    const started = performance.now();
    const result = await parse(body);
    const elapsed = performance.now() - started;
    expect(result.urls).toHaveLength(20_000);
    expect(elapsed).toBeLessThan(1000);
  });
});

describe("reading as a stream", () => {
  /** A sitemap made as it is read, 10,000 entries per chunk; `pulled` counts the chunks asked for. */
  function generated(chunks: number, gzip = false) {
    const counter = { pulled: 0 };
    function* source(): Iterable<Uint8Array> {
      const parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'];
      for (let c = 0; c < chunks; c++) {
        for (let i = c * 10_000; i < (c + 1) * 10_000; i++) parts.push(`<url><loc>https://www.example.com/p/${i}</loc></url>\n`);
        if (c === chunks - 1) parts.push("</urlset>\n");
        counter.pulled += 1;
        yield Buffer.from(parts.join(""));
        parts.length = 0;
      }
    }
    const open = gzip ? () => [gzipSync(Buffer.concat([...source()]))] : source;
    return { open, counter };
  }

  test("reading stops at the entry limit: the rest of the source is never asked for", async () => {
    const { open, counter } = generated(20);
    const result = await readSitemap(open, { url: SITEMAP_URL });
    expect(result.urls).toHaveLength(SITEMAP_MAX_URLS);
    expect(counter.pulled).toBe(6);
  });

  test("a document read in many chunks gives what it gives read at once", async () => {
    const { open } = generated(3);
    const whole = Buffer.concat([...(open() as Iterable<Uint8Array>)]);
    expect(await readSitemap(generated(3).open, { url: SITEMAP_URL })).toEqual(await parse(whole));
    expect((await parse(gzipSync(whole))).urls).toHaveLength(30_000);
  });

  test("an encoding found wrong deep into the document is read again in the next one, from the start", async () => {
    const entries = Array.from({ length: 10_000 }, (_, i) => `<url><loc>https://www.example.com/p/${i}</loc></url>`).join("");
    // Declared UTF-8, but latin-1: the é breaks UTF-8 only after the first chunks have been read.
    const body = Buffer.from(urlset(`${entries}<url><loc>https://www.example.com/caf\u00e9</loc><news:news><news:title>Caf\u00e9</news:title></news:news></url>`), "latin1");
    expect(body.length).toBeGreaterThan(300_000);
    const result = await parse(body);
    expect(result.urls).toHaveLength(10_001);
    expect(result.urls.at(-1)).toEqual({ loc: "https://www.example.com/caf%C3%A9", lastmod: null, news: { title: "Café", publicationDate: null } });
  });
});
