import { describe, expect, test } from "vitest";
import { extractArticle } from "./extract-article";
import { dateFromUrl, datelineDate, parseMetaDate, parseTextDate } from "./published-date";

const PARAGRAPH =
  "<p>The parish council confirmed that the hedge shaped like a whale would stay, after a vote that took four hours, two recounts and a short adjournment for tea.</p>";

/** A small article page: `head` in the head, `before` before the article, `inside` at the top of the article. */
function page({ head = "", before = "", inside = "" }: { head?: string; before?: string; inside?: string }): string {
  return `<!doctype html><html><head><title>Hedge stays</title>${head}</head><body>${before}<article><h1>Hedge stays</h1>${inside}${PARAGRAPH.repeat(5)}</article></body></html>`;
}

const ld = (value: unknown) => `<script type="application/ld+json">${JSON.stringify(value)}</script>`;
const publishedAt = (html: string, url = "https://example.com/news/hedge") => extractArticle(html, url).publishedAt;

describe("publishedAt: where each source is read", () => {
  test.each([
    ["JSON-LD NewsArticle", { head: ld({ "@type": "NewsArticle", datePublished: "2026-11-23T08:00:00Z" }) }, "2026-11-23T08:00:00.000Z"],
    ["JSON-LD BlogPosting inside @graph", { head: ld({ "@context": "https://schema.org", "@graph": [{ "@type": "WebSite", name: "Post" }, { "@type": "BlogPosting", datePublished: "2026-11-22" }] }) }, "2026-11-22T00:00:00.000Z"],
    ["JSON-LD ReportageNewsArticle in a top-level array, @type an array", { head: ld([{ "@type": "BreadcrumbList" }, { "@type": ["ReportageNewsArticle"], datePublished: "2026-11-21T10:00:00+01:00" }]) }, "2026-11-21T09:00:00.000Z"],
    ["JSON-LD Article dated by its WebPage", { head: ld({ "@graph": [{ "@type": "WebPage", datePublished: "2026-11-20" }, { "@type": "Article", headline: "Hedge" }] }) }, "2026-11-20T00:00:00.000Z"],
    ["meta article:published_time", { head: `<meta property="article:published_time" content="2026-11-19T12:00:00Z">` }, "2026-11-19T12:00:00.000Z"],
    ["meta itemprop=datePublished", { head: `<meta itemprop="datePublished" content="2026-11-18">` }, "2026-11-18T00:00:00.000Z"],
    ["<time itemprop=datePublished>", { inside: `<p>On <time itemprop="datePublished" datetime="2026-11-17T07:30:00Z">Tuesday</time></p>` }, "2026-11-17T07:30:00.000Z"],
    ["the first <time datetime> in <article>", { inside: `<p><time datetime="2026-11-16">16 Nov</time></p><p><time datetime="2020-01-01">old</time></p>` }, "2026-11-16T00:00:00.000Z"],
    ["a <time pubdate> outside <article>", { before: `<time pubdate datetime="2026-11-15">15 Nov</time>` }, "2026-11-15T00:00:00.000Z"],
    ["a <time class=entry-date> outside <article>", { before: `<time class="entry-date" datetime="2026-11-14">14 Nov</time>` }, "2026-11-14T00:00:00.000Z"],
    ...[
      "pubdate", "publishdate", "date", "DC.date", "dc.date.issued", "dcterms.created", "sailthru.date", "parsely-pub-date",
      "article.published", "publish-date", "cXenseParse:recs:publishtime", "article:publicationdate",
    ].map((name) => [`meta name=${name}`, { head: `<meta name="${name}" content="2026-11-13T06:00:00Z">` }, "2026-11-13T06:00:00.000Z"] as const),
    ["meta property=og:published_time", { head: `<meta property="og:published_time" content="2026-11-12">` }, "2026-11-12T00:00:00.000Z"],
    ["a short element whose class names the date", { before: `<span class="post-date">Posted on March 3, 2015, at 11:29 a.m.</span>` }, "2015-03-03T00:00:00.000Z"],
    ["a class in camel case", { inside: `<p class="topAttributionWithDate">Tuesday 15 October 2019 by A. Writer</p>` }, "2019-10-15T00:00:00.000Z"],
    ["a news dateline opening the text", { inside: `<p>Feb. 23, 2015 -- Life-threatening peanut allergies have been on the rise in the past decade, with little hope for a cure until now.</p>` }, "2015-02-23T00:00:00.000Z"],
    ["a dateline after a place name", { inside: `<p>WASHINGTON, March 18, 2015 — Gunmen opened fire on visitors at the museum on Wednesday, officials said, and the city was closed.</p>` }, "2015-03-18T00:00:00.000Z"],
  ] as const)("%s", (_label, parts, expected) => {
    expect(publishedAt(page(parts))).toBe(expected);
  });

  test.each([
    ["/2026/11/23/", "https://example.com/2026/11/23/hedge-stays", "2026-11-23T00:00:00.000Z"],
    ["/2026/11/23 at the end", "https://example.com/news/2026/11/23", "2026-11-23T00:00:00.000Z"],
    ["/2026-11-23/", "https://example.com/news/2026-11-23/hedge", "2026-11-23T00:00:00.000Z"],
    ["/2026-11-23-slug", "https://example.com/news/2026-11-23-hedge-stays", "2026-11-23T00:00:00.000Z"],
    ["/20261123/", "https://example.com/news/20261123/hedge", "2026-11-23T00:00:00.000Z"],
    ["a section between the year and the month", "https://example.com/2013/middle_east/8/3/syria/index.html", "2013-08-03T00:00:00.000Z"],
    ["a section between the year and a month that does not exist", "https://example.com/2013/politics/13/3/hedge", null],
    ["a month that does not exist", "https://example.com/2026/13/01/hedge", null],
    ["30 February", "https://example.com/2026/02/30/hedge", null],
    ["a year before 1990", "https://example.com/1989/11/23/hedge", null],
    ["a year and month only", "https://example.com/2026/11/hedge", null],
    ["an id that is not a date", "https://example.com/story/20261399/hedge", null],
    ["digits in the query, not the path", "https://example.com/story?d=2026/11/23/", null],
  ])("a date in the URL path, %s", (_label, url, expected) => {
    expect(dateFromUrl(url)).toBe(expected);
    expect(publishedAt(page({}), url)).toBe(expected);
  });

  test("the canonical URL's date comes before the fetched URL's", () => {
    const html = page({ head: `<link rel="canonical" href="https://example.com/2026/11/20/hedge">` });
    expect(publishedAt(html, "https://example.com/2026/11/23/hedge?utm_source=x")).toBe("2026-11-20T00:00:00.000Z");
  });
});

describe("publishedAt: which source wins", () => {
  test.each([
    ["JSON-LD over article:published_time", `${ld({ "@type": "NewsArticle", datePublished: "2026-01-01" })}<meta property="article:published_time" content="2026-02-02">`, "", "2026-01-01T00:00:00.000Z"],
    ["article:published_time over itemprop", `<meta property="article:published_time" content="2026-02-02"><meta itemprop="datePublished" content="2026-03-03">`, "", "2026-02-02T00:00:00.000Z"],
    ["itemprop over the <time> in the article", `<meta itemprop="datePublished" content="2026-03-03">`, `<time datetime="2026-04-04">x</time>`, "2026-03-03T00:00:00.000Z"],
    ["the <time> in the article over a plain date meta", `<meta name="date" content="2026-05-05">`, `<time datetime="2026-04-04">x</time>`, "2026-04-04T00:00:00.000Z"],
    ["any stated date over the URL", `<meta name="dc.date" content="2026-05-05">`, "", "2026-05-05T00:00:00.000Z"],
  ])("%s", (_label, head, inside, expected) => {
    expect(publishedAt(page({ head, inside }), "https://example.com/2020/01/01/hedge")).toBe(expected);
  });

  test.each([
    ["only article:modified_time", { head: `<meta property="article:modified_time" content="2026-06-06">` }],
    ["a meta naming an update", { head: `<meta name="last-updated-date" content="2026-06-06">` }],
    ["a <time class=updated> outside <article>", { before: `<time class="updated" datetime="2026-06-06">x</time>` }],
    ["an element whose class names an update", { before: `<span class="updated-date">June 6, 2026</span>` }],
    ["a long paragraph that mentions a date", { before: `<div class="date-box">${"Words about things. ".repeat(20)} March 3, 2015</div>` }],
    ["an event's span of days in a box whose class names a date", { before: `<div class="date"><span>October 31st&#8212;November 1st, 2011</span></div>` }],
    ["a date in a paragraph that is not a dateline", { inside: `<p>On March 3, 2015 the council first met to discuss the hedge, which had grown for years without anyone minding it.</p>` }],
  ])("no date from %s", (_label, parts) => {
    expect(publishedAt(page(parts))).toBeNull();
  });
});

describe("date forms", () => {
  test.each([
    ["05/29/2007 09:49:00", "2007-05-29T09:49:00.000Z"],
    ["29/05/2007", "2007-05-29T00:00:00.000Z"],
    ["29.05.2007", "2007-05-29T00:00:00.000Z"],
    ["05.06.2007", "2007-06-05T00:00:00.000Z"],
    ["05/06/2007", null],
    ["Fri Mar 13 21:30:09 EST 2015", "2015-03-14T02:30:09.000Z"],
    ["2015-04-08T12:46:00", "2015-04-08T12:46:00.000Z"],
    ["1429214521", "2015-04-16T20:02:01.000Z"],
    ["June 7, 2013", "2013-06-07T00:00:00.000Z"],
  ])("parseMetaDate(%j) is %j", (input, expected) => {
    expect(parseMetaDate(input)).toBe(expected);
  });

  test.each([
    ["posted on April 21, 2015, at 11:29 a.m.", "2015-04-21T00:00:00.000Z"],
    ["Apr 16, 2015 8:02 pm UTC", "2015-04-16T00:00:00.000Z"],
    ["March 1st 2018", "2018-03-01T00:00:00.000Z"],
    ["Tuesday 15 October 2019 by Bradley M. Kuhn", "2019-10-15T00:00:00.000Z"],
    ["3rd of March, 2015", "2015-03-03T00:00:00.000Z"],
    ["Published 2019-11-21", "2019-11-21T00:00:00.000Z"],
    ["2/26/2015 1:00 AM PST", "2015-02-26T00:00:00.000Z"],
    ["3/09/15 8:00am", null],
    ["February 30, 2015", null],
    ["March 18 at 3:57 PM", null],
    ["Mayor 3, 2015", null],
    ["October 31st—November 1st, 2011", null],
    ["September 12—14, 2011", null],
    ["March 3, 2015 — By Jane Doe", "2015-03-03T00:00:00.000Z"],
    ["Posted May 3, 2015, you may comment", "2015-05-03T00:00:00.000Z"],
  ])("parseTextDate(%j) is %j", (input, expected) => {
    expect(parseTextDate(input)).toBe(expected);
  });

  test.each([
    ["Feb. 23, 2015 -- Peanut allergies are on the rise.", "2015-02-23T00:00:00.000Z"],
    ["April 17, 2015 -- Imagine being sick in the hospital.", "2015-04-17T00:00:00.000Z"],
    ["CAIRO — Gunmen opened fire on visitors.", null],
    ["The hedge - a whale - stays.", null],
  ])("datelineDate(%j) is %j", (input, expected) => {
    expect(datelineDate(input)).toBe(expected);
  });
});
