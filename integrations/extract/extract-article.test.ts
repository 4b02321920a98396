import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { type ArticleExtraction, extractArticle, extractCanonicalUrl, extractPageTitle } from "./extract-article";
import { parseMetaDate } from "./published-date";

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");

/** A golden file: the page's URL, the expected extraction (all but contentHtml), and what contentHtml must and must not contain. */
type Golden = {
  pageUrl: string;
  expected: Omit<ArticleExtraction, "contentHtml">;
  contentHtml: { contains: string[]; excludes: string[] } | null;
};

const cases = readdirSync(fixtures)
  .filter((file) => file.endsWith(".html"))
  .map((file) => file.replace(/\.html$/, ""));

function page(name: string): string {
  return readFileSync(path.join(fixtures, `${name}.html`), "utf8");
}

describe("extractArticle on fixture pages (golden files)", () => {
  test.each(cases)("%s matches its golden file", (name) => {
    const goldenPath = path.join(fixtures, `${name}.expected.json`);
    const golden = JSON.parse(readFileSync(goldenPath, "utf8")) as Golden;
    const { contentHtml, ...rest } = extractArticle(page(name), golden.pageUrl);
    if (process.env.UPDATE_GOLDEN === "1") {
      // Regenerates the expected fields; a human reviews the diff before committing it.
      writeFileSync(goldenPath, `${JSON.stringify({ ...golden, expected: rest }, null, 2)}\n`);
      return;
    }
    expect(rest).toEqual(golden.expected);
    if (golden.contentHtml === null) {
      expect(contentHtml).toBeNull();
    } else {
      for (const needle of golden.contentHtml.contains) expect(contentHtml).toContain(needle);
      for (const needle of golden.contentHtml.excludes) expect(contentHtml).not.toContain(needle);
    }
  });

  test("every fixture page has a golden file", () => {
    const goldens = readdirSync(fixtures).filter((file) => file.endsWith(".expected.json"));
    expect(goldens.map((file) => file.replace(/\.expected\.json$/, "")).sort()).toEqual([...cases].sort());
  });
});

const PARAGRAPH =
  "<p>The parish council confirmed on Monday that the hedge shaped like a whale would stay, after a vote that took four hours, two recounts and a short adjournment for tea.</p>";

/** A small article page with the given head markup and the given extra body markup. */
function articlePage(head: string, body = ""): string {
  return `<!doctype html><html><head>${head}</head><body><article><h1>Hedge stays</h1>${PARAGRAPH.repeat(6)}${body}</article></body></html>`;
}

const EMPTY_EXTRACTION = {
  title: null, summary: null, imageUrl: null, canonicalUrl: null, publishedAt: null, siteName: null,
  text: "", contentHtml: null, textLength: 0,
};

describe("extractArticle on hostile or broken input", () => {
  test.each([
    ["an empty string", ""],
    ["only whitespace", " \n\t "],
    ["a string that is not HTML at all", "\u0000\u0001\u0002"],
  ])("%s gives an empty extraction", (_label, html) => {
    expect(extractArticle(html, "https://example.com/")).toEqual(EMPTY_EXTRACTION);
  });

  test("binary junk neither throws nor yields a URL", () => {
    let seed = 7;
    const bytes = Buffer.from(Array.from({ length: 64 * 1024 }, () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 256));
    const result = extractArticle(bytes.toString("latin1"), "https://example.com/");
    expect(result.imageUrl).toBeNull();
    expect(result.canonicalUrl).toBeNull();
    expect(result.publishedAt).toBeNull();
  });

  test("a 5 MB page of inline scripts around a short article still yields the article", () => {
    const script = `<script>window.__DATA__ = ${JSON.stringify({ blob: "x".repeat(1_000_000) })};</script>`;
    const html = `<html><head><title>Big page</title>${script.repeat(2)}</head><body>${script.repeat(3)}<article>${PARAGRAPH.repeat(6)}</article>${script}</body></html>`;
    expect(html.length).toBeGreaterThan(5_000_000);
    const result = extractArticle(html, "https://example.com/big");
    expect(result.title).toBe("Big page");
    expect(result.text).toContain("hedge shaped like a whale");
    expect(result.text).not.toContain("__DATA__");
  });

  test("a 5 MB page of markup is cut, not refused: its metadata and the start of its text survive", () => {
    const html = `<html><head><meta property="og:title" content="Endless"></head><body><div>${PARAGRAPH.repeat(30_000)}</div></body></html>`;
    expect(html.length).toBeGreaterThan(5_000_000);
    const result = extractArticle(html, "https://example.com/endless");
    expect(result.title).toBe("Endless");
    expect(result.text.startsWith("The parish council confirmed")).toBe(true);
    expect(result.text.split("\n").length).toBeLessThan(30_000);
  });

  test.each([
    ["100,000 nested <div>s", `${"<div>".repeat(100_000)}deep${"</div>".repeat(100_000)}`],
    ["50,000 unclosed <b><i> pairs", `${"<b><i>".repeat(50_000)}deep`],
  ])("a page of %s keeps its metadata and gives up on the body", (_label, body) => {
    const result = extractArticle(`<html><head><title>Deep</title></head><body>${body}</body></html>`, "https://example.com/");
    expect(result.title).toBe("Deep");
    expect(result.text).toBe("");
  });

  test("an article nested 300 levels deep keeps its text, one line per paragraph", () => {
    const html = `<html><head><title>Nested</title></head><body>${"<div>".repeat(300)}${PARAGRAPH.repeat(6)}${"</div>".repeat(300)}</body></html>`;
    const lines = extractArticle(html, "https://example.com/").text.split("\n");
    expect(lines).toHaveLength(6);
    expect(lines[0]).toContain("hedge shaped like a whale");
  });

  test("thousands of unclosed <script> tags do not stop the extraction", () => {
    const html = articlePage("<title>Scripts</title>", "<script>".repeat(20_000));
    const result = extractArticle(html, "https://example.com/");
    expect(result.title).toBe("Scripts");
    expect(result.text).toContain("hedge shaped like a whale");
  });

  test("a fragment without html, head or body is still read", () => {
    const html = `<meta property="og:title" content="Fragment"><link rel="canonical" href="/frag">${PARAGRAPH.repeat(6)}`;
    const result = extractArticle(html, "https://example.com/x");
    expect(result.title).toBe("Fragment");
    expect(result.canonicalUrl).toBe("https://example.com/frag");
    expect(result.text).toContain("hedge shaped like a whale");
  });
});

describe("extractArticle's URLs are absolute http(s)", () => {
  test.each([
    ["javascript: image", `<meta property="og:image" content="javascript:alert(1)">`, null],
    ["javascript: image with a tab in the scheme", `<meta property="og:image" content="java&#9;script:alert(1)">`, null],
    ["data: image", `<meta property="og:image" content="data:image/png;base64,AAAA">`, null],
    ["ftp: image", `<meta property="og:image" content="ftp://files.example.com/a.jpg">`, null],
    ["protocol-relative image", `<meta property="og:image" content="//cdn.example.net/a.jpg">`, "https://cdn.example.net/a.jpg"],
    ["relative image", `<meta property="og:image" content="../img/a.jpg">`, "https://example.com/img/a.jpg"],
    ["JSON-LD image as a plain string", `<script type="application/ld+json">{"@type":"Article","image":"/ld.jpg"}</script>`, "https://example.com/ld.jpg"],
    ["JSON-LD image object with contentUrl", `<script type="application/ld+json">{"@type":"BlogPosting","image":{"contentUrl":"/c.jpg"}}</script>`, "https://example.com/c.jpg"],
    ["<link rel=image_src>", `<link rel="image_src" href="/linked.jpg">`, "https://example.com/linked.jpg"],
  ])("%s", (_label, head, expected) => {
    expect(extractArticle(articlePage(head), "https://example.com/news/story").imageUrl).toBe(expected);
  });

  test("a bad og:image gives way to the next candidate", () => {
    const head = `<meta property="og:image" content="javascript:alert(1)"><meta name="twitter:image" content="/next.jpg">`;
    expect(extractArticle(articlePage(head), "https://example.com/a").imageUrl).toBe("https://example.com/next.jpg");
  });

  test("without any image metadata, the first sizeable image of the article is used, skipping icons", () => {
    const body = `<img src="/icon.png" width="16" height="16"><img src="data:image/gif;base64,R0lGOD"><img src="/photos/hedge.jpg" width="900">`;
    expect(extractArticle(articlePage("", body), "https://example.com/a").imageUrl).toBe("https://example.com/photos/hedge.jpg");
  });

  test.each([
    ["javascript: canonical", `<link rel="canonical" href="javascript:alert(1)">`, null],
    ["canonical with other rel tokens", `<link rel="alternate canonical" href="https://example.com/c">`, "https://example.com/c"],
    ["og:url when there is no canonical", `<meta property="og:url" content="/from-og">`, "http://example.com/from-og"],
    ["protocol-relative canonical", `<link rel="canonical" href="//m.example.com/c">`, "http://m.example.com/c"],
  ])("%s", (_label, head, expected) => {
    expect(extractArticle(articlePage(head), "http://example.com/a").canonicalUrl).toBe(expected);
  });

  test("a javascript: <base href> is ignored: relative URLs resolve against the page", () => {
    const head = `<base href="javascript:alert(1)//"><link rel="canonical" href="/c">`;
    expect(extractArticle(articlePage(head), "https://example.com/a").canonicalUrl).toBe("https://example.com/c");
  });

  test("a page read from a file (no http base) keeps only URLs that were absolute", () => {
    const head = `<link rel="canonical" href="/relative"><meta property="og:image" content="https://example.com/abs.jpg">`;
    const result = extractArticle(articlePage(head, `<a href="/inside">a link</a>`), "file:///tmp/page.html");
    expect(result.canonicalUrl).toBeNull();
    expect(result.imageUrl).toBe("https://example.com/abs.jpg");
    expect(result.contentHtml).not.toContain("file:");
  });
});

describe("extractArticle's dates", () => {
  test.each([
    ["an ISO date with an offset", `<meta property="article:published_time" content="2024-02-29T23:30:00-02:00">`, "2024-03-01T01:30:00.000Z"],
    ["a date without a time", `<meta name="date" content="2021-07-04">`, "2021-07-04T00:00:00.000Z"],
    ["an RFC 822 date in dc.date", `<meta name="dc.date" content="Tue, 05 Mar 2024 10:00:00 +0100">`, "2024-03-05T09:00:00.000Z"],
    ["Unix time in milliseconds", `<meta name="parsely-pub-date" content="1700000000000">`, "2023-11-14T22:13:20.000Z"],
    ["a month that does not exist", `<meta property="article:published_time" content="2024-13-45T10:00:00Z">`, null],
    ["words", `<meta property="article:published_time" content="yesterday afternoon">`, null],
    ["the zero date some CMSs write", `<meta property="article:published_time" content="0000-00-00 00:00:00">`, null],
    ["a year far in the future", `<meta name="date" content="9999-12-31">`, null],
    ["an invalid date followed by a valid JSON-LD one", `<meta property="article:published_time" content="not a date"><script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2020-01-02T03:04:05Z"}</script>`, "2020-01-02T03:04:05.000Z"],
  ])("%s", (_label, head, expected) => {
    expect(extractArticle(articlePage(head), "https://example.com/a").publishedAt).toBe(expected);
  });

  test("without date metadata, the <time datetime> inside the article is used", () => {
    const html = articlePage("", `<p>Posted <time datetime="2022-10-31T12:00:00+09:00">on Halloween</time></p>`);
    expect(extractArticle(html, "https://example.com/a").publishedAt).toBe("2022-10-31T03:00:00.000Z");
  });

  test.each([
    ["1700000000", "2023-11-14T22:13:20.000Z"],
    ["2003-12-31T10:14:55.1234Z", "2003-12-31T10:14:55.000Z"],
    ["", null],
    ["1899-12-31", null],
  ])("parseMetaDate(%j) is %j", (input, expected) => {
    expect(parseMetaDate(input)).toBe(expected);
  });
});

describe("extractArticle's text fields", () => {
  test("entities are decoded once, and twice where a site escaped them twice", () => {
    const head = `<meta property="og:title" content="Fish &amp;amp; chips &#8211; a &quot;love&quot; story"><meta property="og:description" content="Caf&eacute; owner&#x27;s tale">`;
    const result = extractArticle(articlePage(head), "https://example.com/a");
    expect(result.title).toBe('Fish & chips – a "love" story');
    expect(result.summary).toBe("Café owner's tale");
  });

  test("a title's trailing site name is dropped when it is the site's name", () => {
    const head = `<title>Hedge stays — The Parish Post</title><meta property="og:site_name" content="The Parish Post">`;
    expect(extractArticle(articlePage(head), "https://example.com/a").title).toBe("Hedge stays");
  });

  test("a title is kept whole when what follows the separator is not the site's name", () => {
    const head = `<title>Hedge stays - for now</title><meta property="og:site_name" content="The Parish Post">`;
    expect(extractArticle(articlePage(head), "https://example.com/a").title).toBe("Hedge stays - for now");
  });

  test("JSON-LD headline wins over <title>, and markup in it is dropped", () => {
    const head = `<title>Other</title><script type="application/ld+json">{"@context":"https://schema.org","@type":"https://schema.org/NewsArticle","headline":"The <em>whale</em> hedge"}</script>`;
    expect(extractArticle(articlePage(head), "https://example.com/a").title).toBe("The whale hedge");
  });

  test("broken JSON-LD is skipped and the next source is used", () => {
    const head = `<script type="application/ld+json">{"@type":"NewsArticle","headline": </script><title>From the title</title>`;
    expect(extractArticle(articlePage(head), "https://example.com/a").title).toBe("From the title");
  });

  test("with no description anywhere, the summary is the start of the text, cut at a word", () => {
    const html = `<html><body><article>${"<p>Word after word after word, the article goes on at length about hedges.</p>".repeat(20)}</article></body></html>`;
    const { summary } = extractArticle(html, "https://example.com/a");
    expect(summary?.startsWith("Word after word")).toBe(true);
    expect(summary!.length).toBeLessThanOrEqual(300);
  });

  test("text is plain: no tags, no entities, one line per paragraph, and textLength is its length", () => {
    const result = extractArticle(articlePage("", "<p>Fish &amp; <b>chips</b></p>"), "https://example.com/a");
    expect(result.text).not.toMatch(/<|&amp;/);
    expect(result.text.split("\n")).toContain("Fish & chips");
    expect(result.textLength).toBe(result.text.length);
  });
});

describe("extractArticle keeps text as published", () => {
  const PUBLISHED = "It’s “whale” season — again – é ø ß 日本";

  test.each([
    ["og:title and og:description", `<meta property="og:title" content="${PUBLISHED}"><meta property="og:description" content="${PUBLISHED}">`],
    ["<title> and meta description", `<title>${PUBLISHED}</title><meta name="description" content="${PUBLISHED}">`],
    ["JSON-LD headline and description", `<script type="application/ld+json">${JSON.stringify({ "@type": "NewsArticle", headline: PUBLISHED, description: PUBLISHED })}</script>`],
  ])("from %s", (_label, head) => {
    const result = extractArticle(articlePage(head), "https://example.com/a");
    expect(result.title).toBe(PUBLISHED);
    expect(result.summary).toBe(PUBLISHED);
  });

  test("in the article's text", () => {
    const result = extractArticle(articlePage("", `<p>${PUBLISHED}</p>`), "https://example.com/a");
    expect(result.text.split("\n")).toContain(PUBLISHED);
  });
});

describe("extractArticle's title", () => {
  test.each([
    ["og:title is taken as it is when it differs from <title>", `<title>Hedge stays | Parish Post</title><meta property="og:title" content="Hedge stays - For Now">`, "Hedge stays - For Now"],
    ["og:title that repeats <title> is read as a bare <title>", `<title>Council votes to keep the whale hedge | Parish Post</title><meta property="og:title" content="Council votes to keep the whale hedge | Parish Post">`, "Council votes to keep the whale hedge"],
    ["a bare <title> loses a short name after a separator", `<title>Council votes to keep the whale hedge · Parish Post</title>`, "Council votes to keep the whale hedge"],
    ["a bare <title> that is the <h1> and a byline is the <h1>", `<title>Hedge stays - Bradley M. Kuhn ( Brad ) ( bkuhn )</title>`, "Hedge stays"],
    ["a bare <title> that goes on from the <h1> as a phrase is kept", `<title>Hedge stays - for now</title>`, "Hedge stays - for now"],
    ["the host name goes even from og:title", `<meta property="og:title" content="Hedge stays | Example.com">`, "Hedge stays"],
    ["the site's name goes from the front of og:title", `<meta property="og:site_name" content="Parish Post"><meta property="og:title" content="Parish Post | Council votes to keep the whale hedge">`, "Council votes to keep the whale hedge"],
    ["a short front part that is the site's name is kept when little follows", `<meta property="og:site_name" content="Hedge"><meta property="og:title" content="Hedge | Stays">`, "Hedge | Stays"],
    ["og:title that is the <title> and a byline is the <title>", `<title>Voice interfaces</title><meta property="og:title" content="Voice interfaces • Dustin Curtis">`, "Voice interfaces"],
  ])("%s", (_label, head, expected) => {
    expect(extractArticle(articlePage(head), "https://www.example.com/a").title).toBe(expected);
  });

  test.each([
    ["written without its scheme, on the page's host", "www.example.com/news/2012/hedge.html", "https://www.example.com/news/2012/hedge.html"],
    ["written without its scheme, on the page's host without www.", "example.com/news/2012/hedge.html", "https://example.com/news/2012/hedge.html"],
    ["a relative path that only looks like a host", "hedge.html/more", "https://www.example.com/news/hedge.html/more"],
    ["on another host, without a scheme, read as a relative path", "other.example/news/hedge.html", "https://www.example.com/news/other.example/news/hedge.html"],
  ])("og:url %s", (_label, ogUrl, expected) => {
    expect(extractArticle(articlePage(`<meta property="og:url" content="${ogUrl}">`), "https://www.example.com/news/a").canonicalUrl).toBe(expected);
  });

  test("an image URL escaped twice in the markup is read once", () => {
    const head = `<meta property="og:image" content="https://img.example.com/a.jpg?w=750&amp;amp;h=400">`;
    expect(extractArticle(articlePage(head), "https://example.com/a").imageUrl).toBe("https://img.example.com/a.jpg?w=750&h=400");
  });
});

describe("extractPageTitle", () => {
  test.each([
    ["og:title first", `<html><head><title>Doc title</title><meta property="og:title" content="OG &amp; title"></head><body><h1>H1</h1></body></html>`, "OG & title"],
    ["<title> next", `<html><head><title>  Doc\n  title </title></head><body><h1>H1</h1></body></html>`, "Doc title"],
    ["the first <h1> last", `<html><head></head><body><p>intro</p><h1>First <em>heading</em></h1><h1>Second</h1></body></html>`, "First heading"],
    ["a fragment with only an <h1>", `<h1>Lonely heading</h1>`, "Lonely heading"],
    ["nothing at all", `<html><body><p>No title here</p></body></html>`, null],
    ["an empty string", "", null],
    ["binary junk", "\u0000\u00ff\u0001<<<>>>", null],
  ])("%s", (_label, html, expected) => {
    expect(extractPageTitle(html)).toBe(expected);
  });

  test("a long title is cut to at most 200 characters", () => {
    const title = extractPageTitle(`<title>${"very ".repeat(100)}long</title>`);
    expect(title!.length).toBeLessThanOrEqual(200);
    expect(title!.startsWith("very very")).toBe(true);
  });

  test("a script's text is never taken for the title", () => {
    expect(extractPageTitle(`<html><head><script>var t = "<title>Fake</title>";</script></head><body><h1>Real</h1></body></html>`)).toBe("Real");
  });
});

describe("extractCanonicalUrl", () => {
  test.each([
    ["rel=canonical resolved against <base href>", `<html><head><base href="https://static.example.com/s/"><link rel="canonical" href="page"></head></html>`, "https://static.example.com/s/page"],
    ["og:url when there is no canonical", `<html><head><meta property="og:url" content="https://example.com/og"></head></html>`, "https://example.com/og"],
    ["a javascript: canonical falls back to og:url", `<html><head><link rel="canonical" href="javascript:void(0)"><meta property="og:url" content="/og"></head></html>`, "https://example.com/og"],
    ["nothing", `<html><head><title>x</title></head><body><p>text</p></body></html>`, null],
    ["an empty page", "", null],
  ])("%s", (_label, html, expected) => {
    expect(extractCanonicalUrl(html, "https://example.com/article?id=1")).toBe(expected);
  });

  test("gives the same answer as the full extraction on every fixture page", () => {
    for (const name of cases) {
      const { pageUrl } = JSON.parse(readFileSync(path.join(fixtures, `${name}.expected.json`), "utf8")) as Golden;
      expect(extractCanonicalUrl(page(name), pageUrl), name).toBe(extractArticle(page(name), pageUrl).canonicalUrl);
    }
  });
});
