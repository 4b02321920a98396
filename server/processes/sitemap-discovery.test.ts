import http from "node:http";
import { rmSync } from "node:fs";
import pino from "pino";
import { afterAll, beforeAll, expect, test } from "vitest";
import { makeSource } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { SITEMAP_MAX_URLS } from "~/integrations/crawl/sitemap";
import { testHttpClient } from "~/integrations/http/testing";
import type { HttpClient } from "~/integrations/http/types";
import type { JobContext } from "~/jobs/runner";
import { freePort, startTestServer, type TestServer } from "~/test/http-test-server";
import { loadConfig } from "../config";
import { createFeedParserPool, type FeedParserPool } from "./feed-parser-pool";
import type { Logger } from "../logger";
import { createPoliteness } from "../politeness";
import { createWebApp } from "../http/web";
import { workerHandlers } from "./worker-handlers";
import { tempDir } from "~/test/temp-dir";

// A site whose robots.txt lists one large sitemap (tens of MB, made as it is sent), discovered the way
// a server with ROLE=all discovers it: the worker's own discovery handler, on the thread that also
// answers the web app on a real port. /healthz is asked again as soon as it answers, the whole time.
const t = testDatabaseForFile();
const logger = pino({ level: "silent" }) as Logger;
const ENTRIES = 60_000;
let site: TestServer;
let fetcher: HttpClient;
let parsers: FeedParserPool;
let web: { base: string; close: () => Promise<void> };
let dataDir: string;
const events: string[] = [];

beforeAll(async () => {
  site = await startTestServer();
  fetcher = testHttpClient({ timeoutMs: 120_000 });
  parsers = createFeedParserPool({ logger });
  site.handle("/robots.txt", (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end(`User-agent: *\nAllow: /\n\nSitemap: ${site.url}/sitemap-big.xml\n`));
  site.handle("/sitemap-big.xml", (_req, res) => {
    res.writeHead(200, { "content-type": "application/xml" });
    res.once("finish", () => events.push("sitemap sent"));
    res.write('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">\n');
    let i = 0;
    const more = () => {
      while (i < ENTRIES) {
        const batch: string[] = [];
        for (const end = Math.min(ENTRIES, i + 1_000); i < end; i++) batch.push(entry(i));
        if (!res.write(batch.join(""))) return void res.once("drain", more);
      }
      res.end("</urlset>\n");
    };
    more();
  });
  dataDir = tempDir("oddwire-sitemap-web-");
  const port = await freePort();
  const config = loadConfig({ NODE_ENV: "production", PORT: String(port), DATA_DIR: dataDir, AUTH_SECRET: "a-test-secret-that-is-long-enough-0123456789" });
  // /healthz answers before React Router: no React build is needed.
  const app = createWebApp({ config, database: t.database, logger, build: () => Promise.reject(new Error("no React build in this test")) });
  const server = http.createServer(app.nodeHandler).listen(port, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  web = {
    base: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}, 60_000);

afterAll(async () => {
  await web?.close();
  await parsers?.close();
  await fetcher?.close();
  await site?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

// About 700 bytes an entry: 60,000 of them make a sitemap of about 42 MB.
function entry(i: number): string {
  return (
    `<url><loc>${site.url}/archive/2026/11/${i}/a-goat-was-elected-mayor-of-a-small-town-and-the-council-resigned-in-protest-${i}</loc>` +
    `<lastmod>2026-11-20T10:00:00+00:00</lastmod><changefreq>daily</changefreq><priority>0.8</priority>` +
    `<news:news><news:publication><news:name>The Example Times</news:name><news:language>en</news:language></news:publication>` +
    `<news:publication_date>2026-11-20T10:00:00+00:00</news:publication_date><news:title>A goat was elected mayor &amp; then the council resigned, number ${i}</news:title>` +
    `<news:keywords>goat, mayor, council, weird, news, politics, town hall, protest</news:keywords></news:news></url>\n`
  );
}

const context = (): JobContext => ({ jobId: "test", reportProgress: async () => undefined, signal: new AbortController().signal, resumedSince: null });

test("discovering a site with a 42 MB sitemap leaves /healthz answering throughout, and keeps the sitemaps.org limit of 50,000 entries", async () => {
  // Every URL of the sitemap is denied by the source's patterns: what discovery does after reading
  // the sitemap takes no time, so the answers counted below are those given while it was parsed.
  const source = await makeSource(t.db, {
    name: "Big Sitemap Times",
    sourceType: "web_scraping",
    websiteUrl: site.url,
    rssFeedUrl: null,
    scrapingConfig: { crawlDelay: 0, denylistPatterns: ["/archive/"] },
  });
  const handlers = workerHandlers({
    config: { siteUrl: "http://oddwire.test" },
    repos: t.repos,
    http: createPoliteness({ http: fetcher, repos: t.repos, logger, siteUrl: "http://oddwire.test" }),
    logger,
    parseFeed: parsers.parse,
    parseSitemap: parsers.parseSitemap,
    renderer: null,
    facebook: null,
    schedulePost: async () => ({ jobId: "unused" }),
  });

  let discovering = true;
  const failures: string[] = [];
  const poll = (async () => {
    while (discovering) {
      const response = await fetch(`${web.base}/healthz`).catch((error: unknown) => error as Error);
      if (response instanceof Error) {
        failures.push(response.message);
        continue;
      }
      await response.arrayBuffer();
      if (response.status === 200) events.push("healthz");
      else failures.push(`HTTP ${response.status}`);
    }
  })();
  const result = await handlers["crawl-discovery"]({ source_id: source.id }, context()).finally(() => {
    events.push("discovery done");
    discovering = false;
  });
  await poll;

  expect(result).toMatchObject({
    sources: [
      {
        source_id: source.id,
        found: SITEMAP_MAX_URLS,
        skipped_filtered: SITEMAP_MAX_URLS,
        failed: false,
        errors: [`Sitemap ${site.url}/sitemap-big.xml: more than ${SITEMAP_MAX_URLS} entries: read no further than the limit of ${SITEMAP_MAX_URLS}`],
      },
    ],
  });
  expect(failures).toEqual([]);
  // Between the last byte of the sitemap leaving the site and the end of discovery, the sitemap was
  // parsed: parsed on this thread, it held every answer until it was done (one or two at most).
  const sent = events.indexOf("sitemap sent");
  const done = events.indexOf("discovery done");
  expect(sent).toBeGreaterThanOrEqual(0);
  const answeredWhileParsing = events.slice(sent, done).filter((e) => e === "healthz").length;
  expect(answeredWhileParsing).toBeGreaterThan(20);
}, 180_000);
