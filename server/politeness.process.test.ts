/**
 * Every part of the product that requests pages of a site, run against one local site at once, wired
 * as the server wires them (server/politeness.ts, worker-handlers.ts): the site sees one request at a
 * time, at least its robots.txt's Crawl-delay apart, and never the path robots.txt disallows.
 */
import type { ServerResponse } from "node:http";
import { eq } from "drizzle-orm";
import pino from "pino";
import sharp from "sharp";
import { afterAll, beforeAll, expect, test } from "vitest";
import { stories, urlQueue } from "~/db/schema";
import { makeSource, makeStory, makeUrlQueueItem } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { parseFeed } from "~/domain/ingestion/feed/parse-feed";
import { parseSitemap } from "~/integrations/crawl/sitemap";
import { fetchPageTitle } from "~/domain/ingestion/page-title";
import { scrapeUrls } from "~/domain/ingestion/scrape-urls";
import { validateFeed } from "~/domain/ingestion/validate-feed";
import { chromiumPath, createPageRenderer, type PageRenderer } from "~/integrations/browser/render-page";
import { testHttpClient } from "~/integrations/http/testing";
import type { HttpClient } from "~/integrations/http/types";
import type { JobContext } from "~/jobs/runner";
import { rssFeed, startTestServer, type TestServer } from "~/test/http-test-server";
import { createPoliteness } from "./politeness";
import { workerHandlers } from "./processes/worker-handlers";

const t = testDatabaseForFile();
const logger = pino({ level: "silent" });
let site: TestServer;
let http: HttpClient;
let renderer: PageRenderer;
/** Every request the site received: its path and when it arrived. */
const arrivals: { path: string; at: number }[] = [];

const ROBOTS = "User-agent: *\nCrawl-delay: 1\nDisallow: /private/\n";
const paragraph = "A goat walked into the town hall and sat through the whole budget meeting without a sound. ".repeat(4);
const article = (title: string, image?: string) => `<!doctype html><html><head><title>${title}</title>
${image ? `<meta property="og:image" content="${image}">` : ""}</head>
<body><article><h1>${title}</h1>${`<p>${paragraph}</p>`.repeat(6)}</article></body></html>`;

beforeAll(async () => {
  site = await startTestServer();
  http = testHttpClient({ timeoutMs: 10_000 });
  const picture = await sharp({ create: { width: 1600, height: 900, channels: 3, background: "#886644" } }).png().toBuffer();
  const send = (type: string, body: string | Buffer) => (_req: unknown, res: ServerResponse) => res.writeHead(200, { "content-type": type }).end(body);
  const routes: Record<string, ReturnType<typeof send>> = {
    "/robots.txt": send("text/plain", ROBOTS),
    "/sitemap.xml": send(
      "application/xml",
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${["/news/found-1", "/news/found-2", "/private/found"]
        .map((p) => `<url><loc>${site.url}${p}</loc></url>`)
        .join("")}</urlset>`,
    ),
    "/feed.xml": send("application/rss+xml", rssFeed([{ title: "Feed goat", link: `${site.url}/news/feed-item` }])),
    "/js/app.js": send(
      "application/javascript",
      `document.title = "Rendered goat"; const a = document.createElement("article"); a.innerHTML = "<h1>Rendered goat</h1>" + "<p>${paragraph}</p>".repeat(6); document.body.append(a);`,
    ),
    "/js/page": send("text/html", `<!doctype html><html><head><title>Loading</title></head><body><script src="/js/app.js"></script></body></html>`),
    "/img/big-1.png": send("image/png", picture),
    "/img/big-2.png": send("image/png", picture),
  };
  for (const name of ["queued-1", "queued-2", "manual-1", "manual-2", "watched"]) routes[`/news/${name}`] = send("text/html", article(`Goat ${name}`));
  for (const n of [1, 2]) routes[`/news/pictured-${n}`] = send("text/html", article(`Pictured goat ${n}`, `/img/big-${n}.png`));
  for (const [path, handler] of Object.entries(routes)) {
    site.handle(path, (req, res) => {
      arrivals.push({ path, at: performance.now() });
      handler(req, res);
    });
  }
  // Any other path (the disallowed ones included) is recorded by the server's own `hits`.
  renderer = createPageRenderer({ http, executablePath: chromiumPath(), defaultTimeoutMs: 20_000 });
});

afterAll(async () => {
  await renderer.close();
  await http.close();
  await site.close();
});

const context = (): JobContext => ({ jobId: "test", reportProgress: async () => undefined, signal: new AbortController().signal, resumedSince: null });

test("discovery, URL Que, Manual Scrape, image enhancement, rendering, watchlist titles, feed polling and the RSS Validator, run at once, keep one site's Crawl-delay and never fetch what robots.txt disallows", async () => {
  // A worker process and a web process, each with its own gate over the one database (as with ROLE=worker
  // and separate web processes).
  const workerGate = createPoliteness({ http, repos: t.repos, logger, siteUrl: "http://oddwire.test" });
  const webGate = createPoliteness({ http, repos: t.repos, logger, siteUrl: "http://oddwire.test" });
  await renderer.close();
  renderer = createPageRenderer({ http: workerGate, executablePath: chromiumPath(), defaultTimeoutMs: 30_000 });
  const handlers = workerHandlers({
    config: { siteUrl: "http://oddwire.test" },
    repos: t.repos,
    http: workerGate,
    logger,
    parseFeed: async (input) => parseFeed(input),
    parseSitemap,
    renderer,
    facebook: null,
    schedulePost: async () => ({ jobId: "unused" }),
  });

  // The sources ask for no delay of their own: robots.txt's Crawl-delay: 1 is what must hold.
  const crawled = await makeSource(t.db, { sourceType: "web_scraping", websiteUrl: site.url, rssFeedUrl: null, scrapingConfig: { crawlDelay: 0 } });
  const rendered = await makeSource(t.db, {
    sourceType: "web_scraping",
    websiteUrl: `${site.url}/js/`,
    rssFeedUrl: null,
    status: "inactive",
    scrapingConfig: { crawlDelay: 0, jsRendering: true, waitForSelector: "article h1" },
  });
  await makeSource(t.db, { sourceType: "rss", websiteUrl: site.url, rssFeedUrl: `${site.url}/feed.xml`, scrapingConfig: { crawlDelay: 0 } });
  const hiddenFeed = await makeSource(t.db, { sourceType: "rss", websiteUrl: site.url, rssFeedUrl: `${site.url}/private/feed.xml` });
  const queued = await Promise.all(
    ["/news/queued-1", "/news/queued-2", "/private/queued"].map((path) => makeUrlQueueItem(t.db, { url: `${site.url}${path}`, sourceId: crawled.id })),
  );
  const renderRow = await makeUrlQueueItem(t.db, { url: `${site.url}/js/page`, sourceId: rendered.id });
  const pictured = await Promise.all(
    ["/news/pictured-1", "/news/pictured-2", "/private/pictured"].map((path) =>
      makeStory(t.db, { originalUrl: `${site.url}${path}`, imageUrl: null, status: "pending" }),
    ),
  );

  const checkFeed = (url: string) => validateFeed({ http: webGate, parseFeed: async (input) => parseFeed(input) }, url);
  const [discovery, queue, rendering, manual, enhancement, watched, refused, feed, validation, hiddenValidation] = await Promise.all([
    handlers["crawl-discovery"]({ source_id: crawled.id }, context()),
    handlers["scrape-queue"]({ ids: queued.map((row) => row.id) }, context()),
    handlers["scrape-queue"]({ ids: [renderRow.id] }, context()),
    scrapeUrls({ repos: t.repos, http: webGate, logger }, { urls: [`${site.url}/news/manual-1`, `${site.url}/private/manual`, `${site.url}/news/manual-2`] }),
    handlers["enhance-images"]({ storyIds: pictured.map((story) => story.id) }, context()),
    fetchPageTitle({ http: webGate, logger }, `${site.url}/news/watched`),
    fetchPageTitle({ http: webGate, logger }, `${site.url}/private/watched`),
    handlers["rss-ingestion"]({ use_canonical: false }, context()),
    checkFeed(`${site.url}/feed.xml`),
    checkFeed(`${site.url}/private/feed.xml`),
  ]);

  // Every part did its work.
  expect(discovery).toMatchObject({ queued: 2, skipped_robots: 1 });
  expect(queue).toMatchObject({ succeeded: 2, failed: 1 });
  expect(rendering).toMatchObject({ succeeded: 1, failed: 0 });
  expect(manual).toMatchObject({ inserted: 2, failed: 1 });
  expect(enhancement).toMatchObject({ enhanced: 2, failed: 1 });
  expect(watched).toEqual({ title: "Goat watched" });
  expect(feed).toMatchObject({ sources_processed: 2, total_items_processed: 1 });
  expect(validation).toMatchObject({ ok: true });

  // The editor is told why, for that URL.
  const disallowed = (path: string) => expect.stringContaining(`robots.txt disallows ${site.url}${path}`);
  expect(manual.results.find((r) => r.url.endsWith("/private/manual"))).toMatchObject({ success: false, error: disallowed("/private/manual") });
  const [row] = await t.db.select().from(urlQueue).where(eq(urlQueue.id, queued[2]!.id));
  expect(row!.error).toEqual(disallowed("/private/queued"));
  const details = (enhancement as { details: { storyId: number; error?: string }[] }).details;
  expect(details.find((d) => d.storyId === pictured[2]!.id)?.error).toEqual(disallowed("/private/pictured"));
  expect(hiddenValidation).toMatchObject({ ok: false, code: "ROBOTS_DISALLOWED", error: disallowed("/private/feed.xml") });
  expect((await t.repos.ingestion.findSource(hiddenFeed.id))?.lastError).toEqual(disallowed("/private/feed.xml"));
  // The watchlist shows the URL itself.
  expect(refused).toEqual({ title: null });
  const [renderedStory] = await t.db.select().from(stories).where(eq(stories.sourceId, rendered.id));
  expect(renderedStory?.title).toBe("Rendered goat");

  // What the site saw: robots.txt once, then one request at a time, at least a second apart, and
  // nothing under /private/.
  expect(site.hits.filter((path) => path.startsWith("/private/"))).toEqual([]);
  expect(arrivals.filter((a) => a.path === "/robots.txt")).toHaveLength(1);
  expect(arrivals[0]!.path).toBe("/robots.txt");
  expect(arrivals.map((a) => a.path)).toEqual(expect.arrayContaining(["/sitemap.xml", "/feed.xml", "/js/page", "/js/app.js", "/img/big-1.png", "/news/manual-2"]));
  const gaps = arrivals.slice(1).map((a, i) => Math.round(a.at - arrivals[i]!.at));
  expect(Math.min(...gaps)).toBeGreaterThanOrEqual(990);
}, 120_000);

test("a rendered page's clock stops while its requests wait for their turn at the site", async () => {
  const page = await startTestServer();
  try {
    page.handle("/robots.txt", (_req, res) => res.writeHead(404).end());
    page.handle("/slowly", (_req, res) =>
      res
        .writeHead(200, { "content-type": "text/html" })
        .end(`<!doctype html><html><head><title>Slowly</title></head><body><script src="/a.js"></script><script src="/b.js"></script><script src="/c.js"></script></body></html>`),
    );
    for (const name of ["a", "b", "c"]) {
      page.handle(`/${name}.js`, (_req, res) => res.writeHead(200, { "content-type": "application/javascript" }).end(`document.body.dataset.${name} = "1";`));
    }
    const gate = createPoliteness({ http, repos: t.repos, logger, siteUrl: "http://oddwire.test" });
    const patient = createPageRenderer({ http: gate, executablePath: chromiumPath() });
    try {
      // Robots.txt, the page and three scripts, 1.5 s apart: about 6 s of waiting for a page given 3 s
      // (twice the waits of its clock, and room for a busy machine's own slowness).
      const rendered = await patient.render(`${page.url}/slowly`, { crawlDelayMs: 1_500, timeoutMs: 3_000, waitForSelector: "body[data-c]" });
      expect(rendered.html).toContain('data-a="1" data-b="1" data-c="1"');
    } finally {
      await patient.close();
    }
  } finally {
    await page.close();
  }
}, 60_000);
