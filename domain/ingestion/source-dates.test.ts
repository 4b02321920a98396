import { asc } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { stories } from "~/db/schema";
import { makeCategory, makeSource, makeUrlQueueItem } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import type { CrawlDeps } from "~/domain/crawl/deps";
import { createPoliteClient } from "~/domain/crawl/polite-client";
import { scrapeQueue } from "~/domain/crawl/scrape-queue";
import { testHttpClient } from "~/integrations/http/testing";
import type { HttpClient } from "~/integrations/http/types";
import { startTestServer, type TestServer } from "~/test/http-test-server";
import { runIngestionCycle } from "./ingest";
import { scrapeUrls } from "./scrape-urls";

// Every way a story comes in keeps the date its source gave it, and the category its source names.
const t = testDatabaseForFile();
const logger = pino({ level: "silent" });
let site: TestServer;
let http: HttpClient;

const NOW = new Date("2026-11-26T12:00:00Z");
const now = () => NOW.getTime();

const paragraph = "A goat in a small Norwegian town was elected honorary mayor on Tuesday after a write-in campaign that began as a joke. ";
const page = (title: string, head = "") => `<!doctype html><html><head><title>${title}</title><meta property="og:title" content="${title}">${head}</head>
<body><article><h1>${title}</h1>${paragraph.repeat(8).split(". ").map((s) => `<p>${s}.</p>`).join("")}</article></body></html>`;
const rss = (items: { title: string; link: string; date?: string }[]) =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>Odd</title><link>https://odd.example/</link>${items
    .map((i) => `<item><title>${i.title}</title><link>${i.link}</link>${i.date ? `<pubDate>${i.date}</pubDate>` : ""}</item>`)
    .join("")}</channel></rss>`;

beforeAll(async () => {
  site = await startTestServer();
  http = testHttpClient();
  const send = (path: string, body: string, type = "text/html; charset=utf-8") =>
    site.handle(path, (_req, res) => res.writeHead(200, { "content-type": type }).end(body));
  send("/robots.txt", "User-agent: *\nAllow: /\n", "text/plain");
  send(
    "/feed.xml",
    rss([
      { title: "Goat elected mayor", link: "https://odd.example/goat", date: "Fri, 20 Nov 2026 08:30:00 +0100" },
      { title: "Llama opens a bakery", link: "https://odd.example/llama" },
      { title: "Cat from the future", link: "https://odd.example/cat", date: "Mon, 30 Nov 2026 08:00:00 GMT" },
      { title: "Yeti at the epoch", link: "https://odd.example/yeti", date: "Thu, 01 Jan 1970 00:00:00 GMT" },
      { title: "Owl just ahead of our clock", link: "https://odd.example/owl", date: "Thu, 26 Nov 2026 20:00:00 GMT" },
    ]),
    "application/rss+xml",
  );
  send("/dated", page("Dated goat", `<meta property="article:published_time" content="2026-11-19T07:15:00+01:00">`));
  send("/undated", page("Undated llama"));
  send("/future", page("Future cat", `<script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2031-01-01T00:00:00Z"}</script>`));
});
afterAll(async () => {
  await http.close();
  await site.close();
});

const ingestionDeps = () => ({ repos: t.repos, http, logger, now });
const crawlDeps = (): CrawlDeps => ({
  ...ingestionDeps(),
  http: createPoliteClient({ http, crawl: t.repos.crawl, logger, userAgent: "Oddwire/test (+http://127.0.0.1)" }),
  userAgent: "Oddwire/test (+http://127.0.0.1)",
  renderer: null,
});
const allStories = () => t.db.select().from(stories).orderBy(asc(stories.id));
const byTitle = async () => new Map((await allStories()).map((s) => [s.title, s]));
const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;

describe("a story keeps the date its source gave it", () => {
  test("feed items keep their own date; a date far in the future or before 1990 is not kept", async () => {
    await makeSource(t.db, { sourceType: "rss", rssFeedUrl: `${site.url}/feed.xml` });

    await runIngestionCycle(ingestionDeps(), { scope: "all" });

    const stored = await byTitle();
    expect(iso(stored.get("Goat elected mayor")?.sourcePublishedAt)).toBe("2026-11-20T07:30:00.000Z");
    expect(stored.get("Llama opens a bakery")?.sourcePublishedAt).toBeNull();
    expect(stored.get("Cat from the future")?.sourcePublishedAt).toBeNull();
    expect(stored.get("Yeti at the epoch")?.sourcePublishedAt).toBeNull();
    // Eight hours ahead of our clock is within the skew a time zone or a fast clock explains.
    expect(iso(stored.get("Owl just ahead of our clock")?.sourcePublishedAt)).toBe("2026-11-26T20:00:00.000Z");
    // The source's date is not ours: a pending story has no publication date of its own yet.
    expect(stored.get("Goat elected mayor")?.publishDate).toBeNull();
  });

  test("Manual Scrape keeps the page's published date", async () => {
    await scrapeUrls(ingestionDeps(), { urls: [`${site.url}/dated`, `${site.url}/undated`, `${site.url}/future`] });

    const stored = await byTitle();
    expect(iso(stored.get("Dated goat")?.sourcePublishedAt)).toBe("2026-11-19T06:15:00.000Z");
    expect(stored.get("Undated llama")?.sourcePublishedAt).toBeNull();
    expect(stored.get("Future cat")?.sourcePublishedAt).toBeNull();
  });

  test("URL Que scraping keeps the page's date, and the sitemap's date only when the page states none", async () => {
    const source = await makeSource(t.db, { sourceType: "web_scraping", rssFeedUrl: null, websiteUrl: site.url });
    const listed = new Date("2026-11-21T09:00:00Z");
    const rows = await Promise.all(
      ["/dated", "/undated", "/future"].map((path) => makeUrlQueueItem(t.db, { url: `${site.url}${path}`, sourceId: source.id, lastmod: listed })),
    );

    const result = await scrapeQueue(crawlDeps(), { ids: rows.map((r) => r.id) });

    expect(result, JSON.stringify(result.results)).toMatchObject({ succeeded: 3, failed: 0 });
    const stored = await byTitle();
    expect(iso(stored.get("Dated goat")?.sourcePublishedAt)).toBe("2026-11-19T06:15:00.000Z");
    expect(iso(stored.get("Undated llama")?.sourcePublishedAt)).toBe(listed.toISOString());
    // A page date that cannot be true is no date: the sitemap's stands in.
    expect(iso(stored.get("Future cat")?.sourcePublishedAt)).toBe(listed.toISOString());
  });
});

describe("a source's default category", () => {
  test("is given to every story its feed brings in", async () => {
    const odd = await makeCategory(t.db, { name: "Odd Animals" });
    await makeSource(t.db, { sourceType: "rss", rssFeedUrl: `${site.url}/feed.xml`, defaultCategoryId: odd.id });

    await runIngestionCycle(ingestionDeps(), { scope: "all" });

    const rows = await allStories();
    expect(rows).toHaveLength(5);
    expect(rows.map((s) => s.categoryId)).toEqual(Array(5).fill(odd.id));
  });

  test("is given to the stories Manual Scrape brings in with that source, and none without a source", async () => {
    const odd = await makeCategory(t.db, { name: "Odd Animals" });
    const source = await makeSource(t.db, { sourceType: "manual", rssFeedUrl: null, defaultCategoryId: odd.id });

    await scrapeUrls(ingestionDeps(), { urls: [`${site.url}/dated`], sourceId: source.id });
    await scrapeUrls(ingestionDeps(), { urls: [`${site.url}/undated`] });

    const stored = await byTitle();
    expect(stored.get("Dated goat")?.categoryId).toBe(odd.id);
    expect(stored.get("Undated llama")?.categoryId).toBeNull();
  });

  test("is given to the stories URL Que scraping brings in; a source without one leaves them uncategorized", async () => {
    const odd = await makeCategory(t.db, { name: "Odd Animals" });
    const withDefault = await makeSource(t.db, { sourceType: "web_scraping", rssFeedUrl: null, websiteUrl: site.url, defaultCategoryId: odd.id });
    const without = await makeSource(t.db, { sourceType: "web_scraping", rssFeedUrl: null, websiteUrl: site.url });
    const a = await makeUrlQueueItem(t.db, { url: `${site.url}/dated`, sourceId: withDefault.id });
    const b = await makeUrlQueueItem(t.db, { url: `${site.url}/undated`, sourceId: without.id });

    const result = await scrapeQueue(crawlDeps(), { ids: [a.id, b.id] });

    expect(result, JSON.stringify(result.results)).toMatchObject({ succeeded: 2 });
    const stored = await byTitle();
    expect(stored.get("Dated goat")?.categoryId).toBe(odd.id);
    expect(stored.get("Undated llama")?.categoryId).toBeNull();
  });
});
