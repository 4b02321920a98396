import { eq } from "drizzle-orm";
import { existsSync } from "node:fs";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { stories } from "~/db/schema";
import { makeSource, makeUrlQueueItem } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { chromiumPath, createPageRenderer } from "~/integrations/browser/render-page";
import { testHttpClient } from "~/integrations/http/testing";
import type { HttpClient } from "~/integrations/http/types";
import { startTestServer, type TestServer } from "~/test/http-test-server";
import type { CrawlDeps } from "./deps";
import { createPoliteClient } from "./polite-client";
import { scrapeQueue } from "./scrape-queue";

// The crawl's pages that need a browser (a jsRendering source): headless Chromium, a process of its
// own. The rest of the crawl is in crawl.test.ts.

const t = testDatabaseForFile();
const logger = pino({ level: "silent" });
const paragraph = "A snail in a small Welsh village outran the parish council's tortoise in the annual sprint on Sunday. ";
const USER_AGENT = "Oddwire/test (+http://127.0.0.1)";
let site: TestServer;
let http: HttpClient;

beforeAll(async () => {
  site = await startTestServer();
  http = testHttpClient();
  site.handle("/robots.txt", (_req, res) => res.writeHead(404).end());
  site.handle("/story", (_req, res) =>
    res.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><html><head><title>Loading…</title></head><body><div id="app"></div>
<script>setTimeout(() => { document.title = "Snail wins the village sprint"; const a = document.createElement("article");
a.innerHTML = "<h1>Snail wins the village sprint</h1>" + "<p>${paragraph}</p>".repeat(8); document.getElementById("app").append(a); }, 200);</script></body></html>`),
  );
});
afterAll(async () => {
  await http.close();
  await site.close();
});

const crawlDeps = (renderer: CrawlDeps["renderer"]): CrawlDeps => ({
  repos: t.repos,
  http: createPoliteClient({ http, crawl: t.repos.crawl, logger, userAgent: USER_AGENT }),
  logger,
  userAgent: USER_AGENT,
  renderer,
});

// Without a browser this is skipped loudly, except under CI=true, where it must fail.
const skipBrowser = !existsSync(chromiumPath()) && process.env.CI !== "true";
if (skipBrowser) console.warn(`!! jsRendering scrape test skipped: no Chromium at ${chromiumPath()}`);

describe.skipIf(skipBrowser)("a jsRendering source", () => {
  test("its queued page is rendered in headless Chromium, waiting for its selector, and stored", async () => {
    const renderer = createPageRenderer({ http, executablePath: chromiumPath(), defaultTimeoutMs: 15_000 });
    try {
      const source = await makeSource(t.db, {
        sourceType: "web_scraping",
        websiteUrl: site.url,
        rssFeedUrl: null,
        scrapingConfig: { jsRendering: true, waitForSelector: "article h1", crawlDelay: 0 },
      });
      const row = await makeUrlQueueItem(t.db, { url: `${site.url}/story`, sourceId: source.id });
      const result = await scrapeQueue(crawlDeps(renderer), { ids: [row.id] });
      expect(result).toMatchObject({ succeeded: 1, failed: 0 });
      const [story] = await t.db.select().from(stories).where(eq(stories.sourceId, source.id));
      expect(story?.title).toBe("Snail wins the village sprint");
    } finally {
      await renderer.close();
    }
  }, 40_000);

  test("without a browser, the row keeps a clear reason and nothing crashes", async () => {
    const source = await makeSource(t.db, {
      sourceType: "web_scraping",
      websiteUrl: site.url,
      rssFeedUrl: null,
      scrapingConfig: { jsRendering: true, crawlDelay: 0 },
    });
    const row = await makeUrlQueueItem(t.db, { url: `${site.url}/story`, sourceId: source.id });
    const missing = createPageRenderer({ http, executablePath: "/nonexistent/chromium" });
    const result = await scrapeQueue(crawlDeps(missing), { ids: [row.id] });
    expect(result.results[0]).toMatchObject({ success: false, error: expect.stringMatching(/BROWSER_UNAVAILABLE|Chromium/) });
    await missing.close();
  });
});
