import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { describe, expect, test } from "vitest";
import { collectImageCandidates, type ImageCandidate } from "./candidates";

const PAGE = "https://news.example/2026/03/odd-story.html";

/** A candidate as [from, url, declared width, declared height]: one line per candidate in the tables. */
type Row = [ImageCandidate["from"], string, number | null, number | null];
const rows = (html: string, pageUrl = PAGE): Row[] =>
  collectImageCandidates(html, pageUrl).map((c) => [c.from, c.url, c.declaredWidth, c.declaredHeight]);

const head = (markup: string) => `<!doctype html><html><head>${markup}</head><body><p>Text.</p></body></html>`;
const body = (markup: string) => `<!doctype html><html><head><title>T</title></head><body>${markup}</body></html>`;
const jsonLd = (data: unknown) => head(`<script type="application/ld+json">${JSON.stringify(data)}</script>`);

describe("declared images", () => {
  test.each<[string, string, Row[]]>([
    [
      "og:image with its width and height",
      head(`<meta property="og:image" content="https://cdn.example/a.jpg"><meta property="og:image:width" content="1200"><meta property="og:image:height" content="630">`),
      [["og", "https://cdn.example/a.jpg", 1200, 630]],
    ],
    [
      "og:image:secure_url and og:image:url belong to the og:image before them, and share its size",
      head(
        `<meta property="og:image" content="http://cdn.example/a.jpg"><meta property="og:image:secure_url" content="https://cdn.example/a.jpg">` +
          `<meta property="og:image:width" content="800px"><meta property="og:image:height" content="600">`,
      ),
      [
        ["og", "http://cdn.example/a.jpg", 800, 600],
        ["og", "https://cdn.example/a.jpg", 800, 600],
      ],
    ],
    [
      "each repeated og:image keeps its own size",
      head(
        `<meta property="og:image" content="https://cdn.example/a.jpg"><meta property="og:image:width" content="1200"><meta property="og:image:height" content="630">` +
          `<meta property="og:image" content="https://cdn.example/b.jpg"><meta property="og:image:width" content="400"><meta property="og:image:height" content="300">`,
      ),
      [
        ["og", "https://cdn.example/a.jpg", 1200, 630],
        ["og", "https://cdn.example/b.jpg", 400, 300],
      ],
    ],
    [
      "og:image:url alone opens an image",
      head(`<meta property="og:image:url" content="https://cdn.example/u.jpg"><meta property="og:image:width" content="1000">`),
      [["og", "https://cdn.example/u.jpg", 1000, null]],
    ],
    [
      "twitter:image and twitter:image:src (with the old card's width and height), after og:image whatever the markup order",
      head(
        `<meta name="twitter:image:src" content="https://cdn.example/t.jpg"><meta name="twitter:image:width" content="640"><meta name="twitter:image:height" content="426">` +
          `<meta name="twitter:image" content="https://cdn.example/t2.jpg"><meta property="og:image" content="https://cdn.example/o.jpg">`,
      ),
      [
        ["og", "https://cdn.example/o.jpg", null, null],
        ["twitter", "https://cdn.example/t.jpg", 640, 426],
        ["twitter", "https://cdn.example/t2.jpg", null, null],
      ],
    ],
    [
      "<link rel=image_src>, relative to the page",
      head(`<link rel="image_src" href="/media/share.jpg">`),
      [["image_src", "https://news.example/media/share.jpg", null, null]],
    ],
    [
      "sizes that are not pixel counts are not declared sizes",
      head(`<meta property="og:image" content="https://cdn.example/a.jpg"><meta property="og:image:width" content="100%"><meta property="og:image:height" content="0">`),
      [["og", "https://cdn.example/a.jpg", null, null]],
    ],
  ])("%s", (_name, html, expected) => {
    expect(rows(html)).toEqual(expected);
  });
});

describe("JSON-LD images", () => {
  test.each<[string, string, Row[]]>([
    [
      "an article's image as a string",
      jsonLd({ "@context": "https://schema.org", "@type": "NewsArticle", headline: "H", image: "https://cdn.example/ld.jpg" }),
      [["json-ld", "https://cdn.example/ld.jpg", null, null]],
    ],
    [
      "an ImageObject's url, else its contentUrl",
      jsonLd([
        { "@type": "NewsArticle", headline: "H", image: [{ "@type": "ImageObject", url: "https://cdn.example/1.jpg", width: 1600, height: 900 }, { "@type": "ImageObject", contentUrl: "https://cdn.example/2.jpg" }] },
      ]),
      [
        ["json-ld", "https://cdn.example/1.jpg", null, null],
        ["json-ld", "https://cdn.example/2.jpg", null, null],
      ],
    ],
    [
      "a NewsArticle's list of images, in order",
      jsonLd({ "@type": "NewsArticle", headline: "H", image: ["https://cdn.example/16x9.jpg", "https://cdn.example/4x3.jpg", "https://cdn.example/1x1.jpg"] }),
      [
        ["json-ld", "https://cdn.example/16x9.jpg", null, null],
        ["json-ld", "https://cdn.example/4x3.jpg", null, null],
        ["json-ld", "https://cdn.example/1x1.jpg", null, null],
      ],
    ],
    [
      "an ImageObject the article names by @id in a @graph (as Yoast writes it)",
      jsonLd({
        "@context": "https://schema.org",
        "@graph": [
          { "@type": "ImageObject", "@id": "https://news.example/#primaryimage", url: "https://news.example/wp-content/uploads/2026/03/cow.jpg", width: 2048, height: 1365 },
          { "@type": "Article", "@id": "https://news.example/#article", headline: "H", image: { "@id": "https://news.example/#primaryimage" } },
        ],
      }),
      [["json-ld", "https://news.example/wp-content/uploads/2026/03/cow.jpg", null, null]],
    ],
  ])("%s", (_name, html, expected) => {
    expect(rows(html)).toEqual(expected);
  });
});

describe("the article's own pictures", () => {
  test.each<[string, string, Row[]]>([
    [
      "<img src> with its width and height attributes",
      body(`<article><img src="/img/cow.jpg" width="800" height="533"></article>`),
      [["img", "https://news.example/img/cow.jpg", 800, 533]],
    ],
    [
      "only inside <article> when the page has one",
      body(`<header><img src="/logo.png"></header><article><img src="/in.jpg"></article><aside><img src="/ad.jpg"></aside>`),
      [["img", "https://news.example/in.jpg", null, null]],
    ],
    [
      "else inside <main>",
      body(`<nav><img src="/nav.png"></nav><main><img src="/main.jpg"></main>`),
      [["img", "https://news.example/main.jpg", null, null]],
    ],
    [
      "else anywhere in the body",
      body(`<div><img src="/a.jpg"></div><p><img src="/b.jpg"></p>`),
      [
        ["img", "https://news.example/a.jpg", null, null],
        ["img", "https://news.example/b.jpg", null, null],
      ],
    ],
    [
      "a lazy loader's real picture before its placeholder, and a data: placeholder dropped",
      body(
        `<article><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" data-src="/real.jpg" width="1024" height="683">` +
          `<img src="/lazy-placeholder.png" data-lazy-src="/real2.jpg"><img data-original="/real3.jpg"></article>`,
      ),
      [
        ["img", "https://news.example/real.jpg", 1024, 683],
        ["img", "https://news.example/real2.jpg", null, null],
        ["img", "https://news.example/lazy-placeholder.png", null, null],
        ["img", "https://news.example/real3.jpg", null, null],
      ],
    ],
    [
      "the pictures of a <noscript> fallback",
      body(`<article><img class="lazy" data-src="/x.jpg"><noscript><img src="/y.jpg"></noscript></article>`),
      [
        ["img", "https://news.example/x.jpg", null, null],
        ["img", "https://news.example/y.jpg", null, null],
      ],
    ],
    [
      "a srcset's widest entry, its height in the <img>'s proportions",
      body(`<article><img src="/p-400.jpg" width="400" height="300" srcset="/p-400.jpg 400w, /p-1600.jpg 1600w, /p-800.jpg 800w"></article>`),
      [
        ["img", "https://news.example/p-400.jpg", 400, 300],
        ["srcset", "https://news.example/p-1600.jpg", 1600, 1200],
      ],
    ],
    [
      "a srcset's highest density, sized from the <img>'s width and height",
      body(`<article><img src="/q.jpg" width="300" height="200" srcset="/q.jpg, /q@3x.jpg 3x, /q@2x.jpg 2x"></article>`),
      [
        ["img", "https://news.example/q.jpg", 300, 200],
        ["srcset", "https://news.example/q@3x.jpg", 900, 600],
      ],
    ],
    [
      "a <picture>'s sources, each by its widest entry, and data-srcset",
      body(
        `<article><picture><source type="image/avif" srcset="/r-800.avif 800w, /r-2000.avif 2000w"><source srcset="/r-800.webp 800w, /r-1400.webp 1400w">` +
          `<img src="/r.jpg" data-srcset="/r-640.jpg 640w, /r-1280.jpg 1280w"></picture></article>`,
      ),
      [
        ["img", "https://news.example/r.jpg", null, null],
        ["srcset", "https://news.example/r-2000.avif", 2000, null],
        ["srcset", "https://news.example/r-1400.webp", 1400, null],
        ["srcset", "https://news.example/r-1280.jpg", 1280, null],
      ],
    ],
    [
      "srcset URLs with commas in them (Cloudinary) stay whole",
      body(
        `<article><img srcset="https://res.cloudinary.com/demo/image/upload/w_400,c_fill/v1/cow.jpg 400w, https://res.cloudinary.com/demo/image/upload/w_1200,c_fill/v1/cow.jpg 1200w"></article>`,
      ),
      [
        ["srcset", "https://res.cloudinary.com/demo/image/upload/w_1200,c_fill/v1/cow.jpg", 1200, null],
        ["cdn-original", "https://res.cloudinary.com/demo/image/upload/v1/cow.jpg", null, null],
      ],
    ],
    [
      "a tracking pixel is still listed (the chooser rejects it once measured)",
      body(`<article><img src="https://track.example/p.gif?id=1" width="1" height="1"></article>`),
      [["img", "https://track.example/p.gif?id=1", 1, 1]],
    ],
  ])("%s", (_name, html, expected) => {
    expect(rows(html)).toEqual(expected);
  });
});

describe("full-size originals of resized copies", () => {
  const og = (url: string) => head(`<meta property="og:image" content="${url}">`);
  test.each<[string, string, [string, string][]]>([
    [
      "a WordPress resize (name-300x200.jpg) is followed by the uploaded file",
      "https://news.example/wp-content/uploads/2026/03/cow-300x200.jpg",
      [["og", "https://news.example/wp-content/uploads/2026/03/cow-300x200.jpg"], ["wp-original", "https://news.example/wp-content/uploads/2026/03/cow.jpg"]],
    ],
    [
      "WordPress's -scaled copy is left alone (the original may be far larger than needed)",
      "https://news.example/wp-content/uploads/2026/03/cow-scaled.jpg",
      [["og", "https://news.example/wp-content/uploads/2026/03/cow-scaled.jpg"]],
    ],
    [
      "w and h query parameters",
      "https://img.example/photos/cow.jpg?w=300&h=200",
      [["og", "https://img.example/photos/cow.jpg?w=300&h=200"], ["cdn-original", "https://img.example/photos/cow.jpg"]],
    ],
    [
      "width and height, other parameters kept as written, quality kept off known image CDNs",
      "https://img.example/p.jpg?id=7%2C8&width=300&height=200&q=80",
      [["og", "https://img.example/p.jpg?id=7%2C8&width=300&height=200&q=80"], ["cdn-original", "https://img.example/p.jpg?id=7%2C8&q=80"]],
    ],
    [
      "Jetpack's resize and quality, its ssl flag kept; then the WordPress original behind it",
      "https://i0.wp.com/news.example/wp-content/uploads/2026/03/cow-1024x683.jpg?resize=300%2C200&quality=80&ssl=1",
      [
        ["og", "https://i0.wp.com/news.example/wp-content/uploads/2026/03/cow-1024x683.jpg?resize=300%2C200&quality=80&ssl=1"],
        ["wp-original", "https://i0.wp.com/news.example/wp-content/uploads/2026/03/cow.jpg?resize=300%2C200&quality=80&ssl=1"],
        ["cdn-original", "https://i0.wp.com/news.example/wp-content/uploads/2026/03/cow-1024x683.jpg?ssl=1"],
        ["wp-original", "https://i0.wp.com/news.example/wp-content/uploads/2026/03/cow.jpg?ssl=1"],
      ],
    ],
    [
      "Cloudinary transformation segments, chained ones too, the version kept",
      "https://res.cloudinary.com/demo/image/upload/w_300,h_200,c_fill/e_sepia/v1712/odd/cow.jpg",
      [["og", "https://res.cloudinary.com/demo/image/upload/w_300,h_200,c_fill/e_sepia/v1712/odd/cow.jpg"], ["cdn-original", "https://res.cloudinary.com/demo/image/upload/v1712/odd/cow.jpg"]],
    ],
    [
      "a Cloudinary folder that only looks like a transformation is kept",
      "https://res.cloudinary.com/demo/image/upload/my_folder/cow.jpg",
      [["og", "https://res.cloudinary.com/demo/image/upload/my_folder/cow.jpg"]],
    ],
    [
      "imgix: auto=format, fit, crop, w and q all go",
      "https://images.unsplash.com/photo-1500?auto=format&fit=crop&w=1000&q=80&ixlib=rb-4.0.3",
      [["og", "https://images.unsplash.com/photo-1500?auto=format&fit=crop&w=1000&q=80&ixlib=rb-4.0.3"], ["cdn-original", "https://images.unsplash.com/photo-1500?ixlib=rb-4.0.3"]],
    ],
    [
      "Next.js's image optimiser points to its source",
      "https://news.example/_next/image?url=%2Fuploads%2Fcow.jpg&w=640&q=75",
      [["og", "https://news.example/_next/image?url=%2Fuploads%2Fcow.jpg&w=640&q=75"], ["cdn-original", "https://news.example/uploads/cow.jpg"]],
    ],
    ["a plain URL has no other form", "https://img.example/cow.jpg?v=3", [["og", "https://img.example/cow.jpg?v=3"]]],
  ])("%s", (_name, url, expected) => {
    expect(rows(og(url)).map(([from, found]) => [from, found])).toEqual(expected);
  });

  test("an original comes right after the form it came from, before the next found image", () => {
    const html = head(`<meta property="og:image" content="https://cdn.example/a-640x426.jpg"><meta name="twitter:image" content="https://cdn.example/b.jpg?w=600">`);
    expect(rows(html).map(([from]) => from)).toEqual(["og", "wp-original", "twitter", "cdn-original"]);
  });
});

describe("URLs", () => {
  test.each<[string, string, string[]]>([
    [
      "relative, root-relative and protocol-relative URLs resolve against the page",
      body(`<img src="cow.jpg"><img src="/media/hen.jpg"><img src="//cdn.example/pig.jpg">`),
      ["https://news.example/2026/03/cow.jpg", "https://news.example/media/hen.jpg", "https://cdn.example/pig.jpg"],
    ],
    [
      "<base href> is what they resolve against",
      `<html><head><base href="https://static.example/assets/"><meta property="og:image" content="share.jpg"></head><body><img src="inline.jpg"></body></html>`,
      ["https://static.example/assets/share.jpg", "https://static.example/assets/inline.jpg"],
    ],
    [
      "data:, javascript:, blob: and mailto: are dropped",
      body(`<img src="data:image/png;base64,iVBORw0KGgo="><img src="javascript:alert(1)"><img src="java\nscript:alert(1)"><img src="blob:https://news.example/1"><img src="mailto:a@b.example"><img src="/ok.jpg">`),
      ["https://news.example/ok.jpg"],
    ],
    [
      "an ampersand escaped twice is read as one",
      head(`<meta property="og:image" content="https://img.example/p.jpg?a=1&amp;amp;b=2">`),
      ["https://img.example/p.jpg?a=1&b=2"],
    ],
    ["no markup, no candidates", "", []],
    ["bytes that are no page, no candidates", "\u0000\u0001\u0002<<<>>>", []],
  ])("%s", (_name, html, expected) => {
    expect(rows(html).map(([, url]) => url)).toEqual(expected);
  });

  test("each URL once: the first place it was found names it, and the larger declared size is kept", () => {
    const html =
      `<html><head><meta property="og:image" content="https://cdn.example/cow.jpg"><meta name="twitter:image" content="https://cdn.example/cow.jpg">` +
      `<link rel="image_src" href="https://cdn.example/cow.jpg"></head>` +
      `<body><article><img src="https://cdn.example/cow.jpg" width="320" height="240"><img src="https://cdn.example/cow.jpg" width="1600" height="1200"></article></body></html>`;
    expect(rows(html)).toEqual([["og", "https://cdn.example/cow.jpg", 1600, 1200]]);
  });

  test("a page with thousands of pictures is read quickly and yields a bounded list", () => {
    const pictures = Array.from({ length: 5_000 }, (_, i) => `<img src="/p/${i}-300x200.jpg" srcset="/p/${i}-600.jpg 600w, /p/${i}-1200.jpg 1200w">`).join("");
    const started = performance.now();
    const found = collectImageCandidates(body(`<article>${pictures}</article>`), PAGE);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(found.length).toBeLessThanOrEqual(300);
    expect(found[0]).toEqual({ url: "https://news.example/p/0-300x200.jpg", from: "img", declaredWidth: null, declaredHeight: null });
  });
});

describe("real article pages (mozilla/readability's test set)", () => {
  const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "extract", "fixtures", "readability");
  const page = (name: string): Row[] => {
    const html = gunzipSync(readFileSync(path.join(fixtures, name, "source.html.gz"))).toString("utf8");
    const { pageUrl } = JSON.parse(readFileSync(path.join(fixtures, name, "expected.json"), "utf8")) as { pageUrl: string };
    return rows(html, pageUrl);
  };

  test("ars-1: og:image first (its twitter:image:src, written earlier, is the same file and lends its size), then the WordPress original", () => {
    expect(page("ars-1").slice(0, 2)).toEqual([
      ["og", "http://cdn.arstechnica.net/wp-content/uploads/2015/04/server-crash-640x426.jpg", 640, 426],
      ["wp-original", "http://cdn.arstechnica.net/wp-content/uploads/2015/04/server-crash.jpg", null, null],
    ]);
  });

  test("buzzfeed-1: every og:image with its own size, then twitter:image", () => {
    const found = page("buzzfeed-1");
    expect(found.slice(0, 5)).toEqual([
      ["og", "http://s3-static-ak.buzzfed.com/static/2015-04/22/5/campaign_images/webdr03/student-dies-after-diet-pills-she-bought-online-b-2-28712-1429696299-24_dblbig.jpg", 625, 415],
      ["og", "http://s3-ak.buzzfeed.com/static/2015-04/21/4/enhanced/webdr10/enhanced-6418-1429605460-16.jpg", 625, 422],
      ["og", "http://s3-ak.buzzfeed.com/static/2015-04/21/5/enhanced/webdr12/grid-cell-2501-1429608056-15.jpg", 203, 412],
      ["og", "http://s3-ak.buzzfeed.com/static/2015-04/21/5/enhanced/webdr12/grid-cell-2501-1429608057-18.jpg", 412, 412],
      ["twitter", "http://s3-static-ak.buzzfed.com/static/2015-04/22/5/campaign_images/webdr03/student-dies-after-diet-pills-she-bought-online-b-2-28712-1429696299-24_big.jpg", null, null],
    ]);
    expect(found).toContainEqual(["img", "http://ak-hdl.buzzfed.com/static/2015-04/21/4/enhanced/webdr10/enhanced-6418-1429605460-16.jpg", 625, 422]);
  });

  test("liberation-1: og:image (escaped twice) is also the article's 750 px picture; the URL without width=750 follows; twitter's 600 px copy keeps its size", () => {
    expect(page("liberation-1")).toEqual([
      ["og", "http://md1.libe.com/photo/755923-000_hkg10175905.jpg?modified_at=1430371146&width=750", 750, null],
      ["cdn-original", "http://md1.libe.com/photo/755923-000_hkg10175905.jpg?modified_at=1430371146", null, null],
      ["twitter", "http://md1.libe.com/photo/755923-000_hkg10175905.jpg?modified_at=1430371146&width=600", 600, 400],
    ]);
  });

  test("tmz-1: the 1200x630 share copy (og:image and image_src) and its WordPress-style original, then the article's pictures", () => {
    expect(page("tmz-1")).toEqual([
      ["og", "http://ll-media.tmz.com/2015/02/26/0225-lupita-nyongo-getty-01-1200x630.jpg", null, null],
      ["wp-original", "http://ll-media.tmz.com/2015/02/26/0225-lupita-nyongo-getty-01.jpg", null, null],
      ["img", "http://ll-media.tmz.com/2015/02/26/0225-lupita-nyongo-getty-4.jpg", null, null],
      ["img", "http://ll-media.tmz.com/2013/11/20/update-graphic-red-bar.jpg", null, null],
      ["img", "http://ll-media.tmz.com/2015/02/26/0226-sub-london-hotel-swipe-tmz-11.jpg", null, null],
    ]);
  });

  test("lemonde-1: og:image with its declared 600x315, then the article's only picture (a 24 px author thumbnail)", () => {
    expect(page("lemonde-1")).toEqual([
      ["og", "http://s1.lemde.fr/image/2015/05/05/600x315/4628128_3_47fc_projet-de-loi-renseignement_aeba800424730d672d1bd08faf203438.jpg", 600, 315],
      ["img", "http://s1.lemde.fr/image/2014/04/18/24x24/1100512060_4_989c_13978271609841-0kab-c47_a068f1501374eefd42e6bb2cac94b37a.jpg", 24, 24],
    ]);
  });

  test("v8-blog: no declared image; the <picture>'s 2x sources, sized from the 96 px <img>", () => {
    expect(page("v8-blog")).toEqual([
      ["img", "https://v8.dev/_img/avatars/alon-zakai.jpg", 96, 96],
      ["srcset", "https://v8.dev/_img/avatars/alon-zakai@2x.avif", 192, 192],
      ["srcset", "https://v8.dev/_img/avatars/alon-zakai@2x.jpg", 192, 192],
    ]);
  });

  test("webmd-1: <link rel=image_src> is the only declared image, before the body's pictures", () => {
    const found = page("webmd-1");
    expect(found[0]).toEqual(["image_src", "http://img.webmd.com/dtmcms/live/webmd/consumer_assets/site_images/miscellaneous/webmd_FB_logo_bluebkgrd.jpg?v=1", null, null]);
    expect(found.slice(1).every(([from]) => from === "img" || from === "srcset" || from.endsWith("-original"))).toBe(true);
  });

  test("medium-1: og:image's 800 px copy, then the article's 2000 px copy of the same picture", () => {
    expect(page("medium-1").slice(0, 2)).toEqual([
      ["og", "https://d262ilb51hltx0.cloudfront.net/max/800/1*oBWUXtszDsiv_-Qq2bFLTQ.png", null, null],
      ["img", "https://d262ilb51hltx0.cloudfront.net/max/2000/1*oBWUXtszDsiv_-Qq2bFLTQ.png", null, null],
    ]);
  });
});
