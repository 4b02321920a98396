import { gzipSync } from "node:zlib";
import { asc, eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { crawlHosts, rejectedStories, sources, stories, urlQueue } from "~/db/schema";
import { makeRejectedStory, makeSource, makeUrlQueueItem } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { testHttpClient } from "~/integrations/http/testing";
import type { HttpClient } from "~/integrations/http/types";
import { normalizeUrl } from "~/lib/normalize-url";
import { startTestServer, type TestServer } from "~/test/http-test-server";
import type { CrawlDeps } from "./deps";
import { discoverSource, runDiscoveryCycle } from "./discover";
import { createPoliteClient } from "./polite-client";
import { LEFT_QUEUED_TEXT, scrapeQueue } from "./scrape-queue";

const ROBOTS_DENYING_PRIVATE = "User-agent: *\nDisallow: /private/\n";

const t = testDatabaseForFile();
const logger = pino({ level: "silent" });
let site: TestServer;
let http: HttpClient;

const paragraph = "A goat in a small Norwegian town was elected honorary mayor on Tuesday after a write-in campaign that began as a joke. ";
const article = (title: string, body = paragraph.repeat(8)) =>
  `<!doctype html><html><head><title>${title} | Odd Times</title><meta property="og:title" content="${title}"></head>
<body><article><h1>${title}</h1>${body.split(". ").map((s) => `<p>${s}.</p>`).join("")}</article></body></html>`;
const urlset = (urls: { loc: string; lastmod?: string }[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls
    .map((u) => `<url><loc>${u.loc}</loc>${u.lastmod ? `<lastmod>${u.lastmod}</lastmod>` : ""}</url>`)
    .join("")}</urlset>`;

beforeAll(async () => {
  site = await startTestServer();
  http = testHttpClient();
  const u = (path: string) => `${site.url}${path}`;
  const send = (path: string, body: string | Buffer, type: string) => site.handle(path, (_req, res) => res.writeHead(200, { "content-type": type }).end(body));
  send("/robots.txt", `User-agent: *\nDisallow: /private/\n\nSitemap: ${u("/sitemap_index.xml")}\n`, "text/plain");
  send(
    "/sitemap_index.xml",
    `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
      <sitemap><loc>${u("/sitemaps/articles.xml.gz")}</loc></sitemap>
      <sitemap><loc>${u("/sitemaps/news.xml")}</loc></sitemap>
      <sitemap><loc>${u("/sitemaps/broken.xml")}</loc></sitemap>
    </sitemapindex>`,
    "application/xml",
  );
  send(
    "/sitemaps/articles.xml.gz",
    gzipSync(
      urlset([
        { loc: u("/news/goat"), lastmod: "2026-11-20T08:00:00Z" },
        { loc: u("/news/llama"), lastmod: "2026-11-19" },
        { loc: u("/private/secret") },
        { loc: u("/tag/goats") },
        { loc: "https://elsewhere.example/news/x" },
      ]),
    ),
    "application/x-gzip",
  );
  send(
    "/sitemaps/news.xml",
    `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
      <url><loc>${u("/news/frog")}</loc><news:news><news:publication><news:name>Odd</news:name><news:language>en</news:language></news:publication>
      <news:publication_date>2026-11-21T09:30:00Z</news:publication_date><news:title>Frog mayor</news:title></news:news></url>
    </urlset>`,
    "application/xml",
  );
  send("/sitemaps/broken.xml", "<html><body>Not a sitemap</body></html>", "text/html");
  send("/section", `<html><body><a href="/news/yeti">Yeti</a><a href="/news/goat#top">Goat</a><a href="/about">About</a></body></html>`, "text/html");
  send("/news/goat", article("Goat elected mayor"), "text/html; charset=utf-8");
  send("/news/frog", article("Frog opens bakery"), "text/html; charset=utf-8");
  send("/news/yeti", article("Yeti spotted", "Too short to be a story."), "text/html");
});
afterAll(async () => {
  await http.close();
  await site.close();
});
afterEach(() => {
  site.hits.length = 0;
});

function crawlDeps(): CrawlDeps {
  return {
    repos: t.repos,
    http: createPoliteClient({ http, crawl: t.repos.crawl, logger, userAgent: "Oddwire/test (+http://127.0.0.1)" }),
    logger,
    userAgent: "Oddwire/test (+http://127.0.0.1)",
    renderer: null,
  };
}

const weirdSite = (overrides: Record<string, unknown> = {}) =>
  makeSource(t.db, {
    name: "Odd Times",
    sourceType: "web_scraping",
    websiteUrl: site.url,
    rssFeedUrl: null,
    scrapingConfig: {
      startUrls: [`${site.url}/section`],
      allowlistPatterns: ["/news/", "/private/"],
      denylistPatterns: ["/tag/"],
      crawlDelay: 0,
      ...overrides,
    },
  });

const queued = () => t.db.select().from(urlQueue).orderBy(asc(urlQueue.url));

describe("discovery", () => {
  test("queues the site's new article URLs from its sitemaps and start pages, counting every skip by its reason", async () => {
    const source = await weirdSite();
    await makeRejectedStory(t.db, { originalUrl: `${site.url}/news/llama`, ...identity(`${site.url}/news/llama`) });

    const report = await discoverSource(crawlDeps(), source);

    expect(report).toMatchObject({
      found: 8,
      queued: 3,
      skipped_robots: 1,
      skipped_known: 1,
      skipped_filtered: 3,
      failed: false,
    });
    expect(report.errors).toEqual([expect.stringContaining("/sitemaps/broken.xml")]);
    const rows = await queued();
    expect(rows.map((r) => r.url)).toEqual([`${site.url}/news/frog`, `${site.url}/news/goat`, `${site.url}/news/yeti`]);
    expect(rows.every((r) => r.sourceId === source.id && r.status === "queued")).toBe(true);
    expect(rows.find((r) => r.url.endsWith("/goat"))?.lastmod?.toISOString()).toBe("2026-11-20T08:00:00.000Z");
    // A news sitemap's publication date stands in for lastmod.
    expect(rows.find((r) => r.url.endsWith("/frog"))?.lastmod?.toISOString()).toBe("2026-11-21T09:30:00.000Z");
    expect(site.hits).not.toContain("/private/secret");
  });

  test("run again, it adds nothing new", async () => {
    const source = await weirdSite();
    await discoverSource(crawlDeps(), source);
    const again = await discoverSource(crawlDeps(), source);
    expect(again.queued).toBe(0);
    expect(again.skipped_known).toBe(4);
    expect(await queued()).toHaveLength(4);
  });

  test("sitemap indexes are followed three levels deep and no deeper, each sitemap once", async () => {
    const deep = await startTestServer();
    try {
      const index = (child: string) =>
        `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${deep.url}${child}</loc></sitemap><sitemap><loc>${deep.url}/level0.xml</loc></sitemap></sitemapindex>`;
      const send = (p: string, body: string) => deep.handle(p, (_req, res) => res.writeHead(200, { "content-type": "application/xml" }).end(body));
      deep.handle("/robots.txt", (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end(`Sitemap: ${deep.url}/level0.xml\n`));
      send("/level0.xml", index("/level1.xml"));
      send("/level1.xml", index("/level2.xml"));
      send("/level2.xml", index("/level3.xml"));
      send("/level3.xml", urlset([{ loc: `${deep.url}/too-deep` }]));
      const source = await makeSource(t.db, { sourceType: "web_scraping", websiteUrl: deep.url, rssFeedUrl: null, scrapingConfig: { crawlDelay: 0 } });
      const report = await discoverSource(crawlDeps(), source);
      expect(deep.hits).toEqual(["/robots.txt", "/level0.xml", "/level1.xml", "/level2.xml"]);
      expect(report.errors).toEqual([expect.stringMatching(/level3\.xml: nested deeper than 3 levels/)]);
      expect(report.queued).toBe(0);
    } finally {
      await deep.close();
    }
  });

  test("robots.txt is read once a day per origin, from the database", async () => {
    const source = await weirdSite({ startUrls: [] });
    await discoverSource(crawlDeps(), source);
    await discoverSource(crawlDeps(), source);
    expect(site.hits.filter((p) => p === "/robots.txt")).toHaveLength(1);
    const [host] = await t.db.select().from(crawlHosts).where(eq(crawlHosts.origin, site.url));
    expect(host?.robotsStatus).toBe(200);
  });

  test("a robots.txt answering 5xx fetches nothing else from the site this cycle, and is asked again next time", async () => {
    const down = await startTestServer();
    try {
      down.handle("/robots.txt", (_req, res) => res.writeHead(503).end());
      const source = await makeSource(t.db, { sourceType: "web_scraping", websiteUrl: down.url, rssFeedUrl: null, scrapingConfig: { startUrls: [`${down.url}/`], crawlDelay: 0 } });
      const report = await discoverSource(crawlDeps(), source);
      expect(report.failed).toBe(true);
      expect(report.errors[0]).toMatch(/robots\.txt answered HTTP 503: nothing fetched/);
      await discoverSource(crawlDeps(), source);
      expect(down.hits).toEqual(["/robots.txt", "/robots.txt"]);
    } finally {
      await down.close();
    }
  });

  test("a robots.txt answering 404 allows everything", async () => {
    const open = await startTestServer();
    try {
      open.handle("/", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(`<a href="/news/a">A</a>`));
      const source = await makeSource(t.db, { sourceType: "web_scraping", websiteUrl: open.url, rssFeedUrl: null, scrapingConfig: { startUrls: [`${open.url}/`], crawlDelay: 0 } });
      const report = await discoverSource(crawlDeps(), source);
      expect(report).toMatchObject({ queued: 1, failed: false, errors: [] });
    } finally {
      await open.close();
    }
  });

  test.each([
    ["UTF-16 LE with its BOM", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(ROBOTS_DENYING_PRIVATE, "utf16le")])],
    ["UTF-8 with its BOM", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(ROBOTS_DENYING_PRIVATE, "utf8")])],
  ])("a robots.txt saved as %s is obeyed and kept", async (_encoding, bytes) => {
    const site16 = await startTestServer();
    try {
      site16.handle("/robots.txt", (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end(bytes));
      site16.handle("/", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(`<a href="/news/a">A</a> <a href="/private/b">B</a>`));
      const source = await makeSource(t.db, { sourceType: "web_scraping", websiteUrl: site16.url, rssFeedUrl: null, scrapingConfig: { startUrls: [`${site16.url}/`], crawlDelay: 0 } });
      const report = await discoverSource(crawlDeps(), source);
      expect(report).toMatchObject({ queued: 1, failed: false, errors: [] });
      expect((await t.db.select({ url: urlQueue.url }).from(urlQueue)).map((r) => r.url)).toEqual([`${site16.url}/news/a`]);
      const [host] = await t.db.select().from(crawlHosts).where(eq(crawlHosts.origin, site16.url));
      expect(host?.robotsBody).toBe(ROBOTS_DENYING_PRIVATE);
    } finally {
      await site16.close();
    }
  });

  test("requests to one origin are at least crawlDelay apart, and the robots.txt Crawl-delay wins when larger", async () => {
    const slow = await startTestServer();
    const starts: number[] = [];
    try {
      const timed = (path: string, type: string, body: string) =>
        slow.handle(path, (_req, res) => {
          starts.push(performance.now());
          res.writeHead(200, { "content-type": type }).end(body);
        });
      timed("/robots.txt", "text/plain", "User-agent: *\nCrawl-delay: 0.3\n");
      timed("/sitemap.xml", "application/xml", urlset([{ loc: `${slow.url}/a` }]));
      timed("/one", "text/html", `<a href="/b">b</a>`);
      timed("/two", "text/html", `<a href="/c">c</a>`);
      const source = await makeSource(t.db, {
        sourceType: "web_scraping",
        websiteUrl: slow.url,
        rssFeedUrl: null,
        scrapingConfig: { startUrls: [`${slow.url}/one`, `${slow.url}/two`], crawlDelay: 150 },
      });
      const report = await discoverSource(crawlDeps(), source);
      expect(report.queued).toBe(3);
      expect(starts).toHaveLength(4);
      const gaps = starts.slice(1).map((s, i) => s - starts[i]!);
      // robots.txt itself is fetched with the config's delay; later requests with the larger Crawl-delay.
      expect(gaps[0]).toBeGreaterThanOrEqual(150);
      for (const gap of gaps.slice(1)) expect(gap).toBeGreaterThanOrEqual(300);
    } finally {
      await slow.close();
    }
  });

  test("a cycle writes each source's last run, and three failed runs in a row set it to error", async () => {
    const source = await makeSource(t.db, {
      sourceType: "web_scraping",
      websiteUrl: "http://127.0.0.1:9/",
      rssFeedUrl: null,
      scrapingConfig: { crawlDelay: 0 },
    });
    for (let run = 1; run <= 3; run++) {
      await t.db.update(sources).set({ nextCheckAt: null }).where(eq(sources.id, source.id));
      const cycle = await runDiscoveryCycle(crawlDeps(), { scope: "due" });
      expect(cycle.sources.map((s) => s.source_id)).toEqual([source.id]);
    }
    const [row] = await t.db.select().from(sources).where(eq(sources.id, source.id));
    expect(row?.status).toBe("error");
    expect(row?.consecutiveErrors).toBe(3);
    expect(row?.lastError).toMatch(/robots\.txt could not be fetched/);
    expect(row?.lastDiscovery).toMatchObject({ found: 0, queued: 0 });
    expect(row?.leaseUntil).toBeNull();
  });

  test("autoScrape scrapes that many of the newest queued URLs after discovery", async () => {
    const source = await weirdSite({ autoScrape: 2, startUrls: [] });
    const cycle = await runDiscoveryCycle(crawlDeps(), { scope: "all", sourceIds: [source.id] });
    expect(cycle.sources[0]?.auto_scrape).toEqual({ succeeded: 2, failed: 0 });
    const pending = await t.db.select().from(stories).where(eq(stories.sourceId, source.id));
    expect(pending.map((s) => s.title).sort()).toEqual(["Frog opens bakery", "Goat elected mayor"]);
  });
});

describe("scraping queued URLs", () => {
  test("turns them into pending stories of their source; a thin page stays queued with the spec's text and its reason", async () => {
    const source = await weirdSite();
    const goat = await makeUrlQueueItem(t.db, { url: `${site.url}/news/goat`, sourceId: source.id });
    const yeti = await makeUrlQueueItem(t.db, { url: `${site.url}/news/yeti`, sourceId: source.id });

    const result = await scrapeQueue(crawlDeps(), { ids: [goat.id, yeti.id] });

    expect(result).toMatchObject({ succeeded: 1, failed: 1, total: 2 });
    const [story] = await t.db.select().from(stories).where(eq(stories.sourceId, source.id));
    expect(story).toMatchObject({ title: "Goat elected mayor", status: "pending" });
    const rows = await queued();
    expect(rows.find((r) => r.id === goat.id)).toMatchObject({ status: "scraped", error: null });
    const thin = rows.find((r) => r.id === yeti.id);
    expect(thin?.status).toBe("queued");
    expect(thin?.error).toContain(LEFT_QUEUED_TEXT);
    expect(thin?.error).toMatch(/Too little text/);
    expect(thin?.attempts).toBe(1);
  });

  test("the third failure marks the row failed with the last reason", async () => {
    const source = await weirdSite();
    const yeti = await makeUrlQueueItem(t.db, { url: `${site.url}/news/yeti`, sourceId: source.id });
    for (let i = 0; i < 3; i++) await scrapeQueue(crawlDeps(), { ids: [yeti.id] });
    const [row] = await t.db.select().from(urlQueue).where(eq(urlQueue.id, yeti.id));
    expect(row).toMatchObject({ status: "failed", attempts: 3 });
    expect(row?.error).toMatch(/^Failed 3 times\. Last reason: Too little text/);
  });

  test("a source's keywords apply: a page they exclude is not stored", async () => {
    const source = await weirdSite();
    await t.db.update(sources).set({ excludeKeywords: ["goat"] }).where(eq(sources.id, source.id));
    const goat = await makeUrlQueueItem(t.db, { url: `${site.url}/news/goat`, sourceId: source.id });
    const result = await scrapeQueue(crawlDeps(), { ids: [goat.id] });
    expect(result.results[0]).toMatchObject({ outcome: "filtered_out", error: 'excluded by keyword "goat"' });
    expect(await t.db.select().from(stories)).toHaveLength(0);
  });

  test("a 429 with Retry-After leaves the row queued and pauses the origin for everyone", async () => {
    const busy = await startTestServer();
    try {
      busy.handle("/robots.txt", (_req, res) => res.writeHead(404).end());
      busy.handle("/page", (_req, res) => res.writeHead(429, { "retry-after": "120" }).end());
      const source = await makeSource(t.db, { sourceType: "web_scraping", websiteUrl: busy.url, rssFeedUrl: null, scrapingConfig: { crawlDelay: 0 } });
      const row = await makeUrlQueueItem(t.db, { url: `${busy.url}/page`, sourceId: source.id });
      const result = await scrapeQueue(crawlDeps(), { ids: [row.id] });
      expect(result).toMatchObject({ failed: 1, rate_limited: 1 });
      expect(result.results[0]).toMatchObject({ success: false, error: "Rate limited (HTTP 429)" });
      const [after] = await t.db.select().from(urlQueue).where(eq(urlQueue.id, row.id));
      expect(after).toMatchObject({ status: "queued", attempts: 1 });
      const [host] = await t.db.select().from(crawlHosts).where(eq(crawlHosts.origin, busy.url));
      expect(host?.pausedUntil?.getTime()).toBeGreaterThan(Date.now() + 100_000);
      expect(await t.repos.crawl.claimHost(busy.url, 1000)).toMatchObject({ held: false });
    } finally {
      await busy.close();
    }
  });

  test("rejecting queued URLs records them as rejected, so discovery never queues them again", async () => {
    const source = await weirdSite({ startUrls: [] });
    await discoverSource(crawlDeps(), source);
    const goat = (await queued()).find((r) => r.url.endsWith("/news/goat"))!;
    const rows = await t.repos.crawl.identities([goat.id]);
    await t.repos.crawl.reject(rows.map((r) => ({ ...r, contentHash: "x" })), { rejectedBy: null, at: new Date() });
    expect(await t.db.select().from(rejectedStories).where(eq(rejectedStories.urlHash, goat.urlHash))).toHaveLength(1);
    const again = await discoverSource(crawlDeps(), source);
    expect(again.queued).toBe(0);
    expect((await queued()).map((r) => r.url)).not.toContain(goat.url);
  });
});

function identity(url: string) {
  const normalized = normalizeUrl(url);
  if (!normalized.ok) throw new Error(url);
  return { normalizedUrl: normalized.normalized, urlHash: normalized.hash };
}
