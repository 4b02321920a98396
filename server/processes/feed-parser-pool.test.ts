import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { feedProcessingLog, sources } from "~/db/schema";
import { makeSource } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { FeedParseError, isFeedParseTimeout, parseFeed } from "~/domain/ingestion/feed/parse-feed";
import { runIngestionCycle } from "~/domain/ingestion/ingest";
import { validateFeed } from "~/domain/ingestion/validate-feed";
import { testHttpClient } from "~/integrations/http/testing";
import type { HttpClient } from "~/integrations/http/types";
import { parseSitemap, SitemapError } from "~/integrations/crawl/sitemap";
import { corpusPath } from "~/test/corpora";
import { rssFeed, startTestServer, type TestServer } from "~/test/http-test-server";
import { createFeedParserPool, type FeedParserPool } from "./feed-parser-pool";

const t = testDatabaseForFile();
const logger = pino({ level: "silent" });
// A parser that never finishes a feed whose URL ends in /hang, and names any other after its URL:
// the time limit is then the only way out, however fast or busy the machine.
const NEVER_ENDING_PARSER = `data:text/javascript,${encodeURIComponent(
  `export function parseFeed(input) {
    if (String(input.url).endsWith("/hang")) for (;;);
    return { format: "rss", version: "2.0", title: input.url, description: null, siteUrl: null, updatedAt: null, items: [] };
  }`,
)}`;
const pools: FeedParserPool[] = [];
const pool = (timeoutMs?: number, parserModule?: string) => {
  const created = createFeedParserPool({ logger, timeoutMs, parserModule });
  pools.push(created);
  return created;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

describe("parsing feeds on a worker thread", () => {
  test("gives the same result as parsing on this thread, for feeds in flight together", async () => {
    const files = ["miniflux/cases/rss/parser_test/TestParseRss2Sample.xml", "feedparser/tests/wellformed/atom10/entry_content_base64.xml"].map(corpusPath);
    const inputs = files.map((file) => ({ bytes: readFileSync(file), contentType: "application/xml", url: "https://odd.example/feed" }));
    const parser = pool();
    const results = await Promise.all(inputs.map((input) => parser.parse(input)));
    expect(results).toEqual(inputs.map((input) => parseFeed(input)));
  }, 30_000);

  test("a document that is not a feed is refused with the parser's code", async () => {
    const error = await pool()
      .parse({ bytes: new TextEncoder().encode("<html><body>hello</body></html>"), contentType: "text/html" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FeedParseError);
    expect(error).toMatchObject({ code: "NOT_A_FEED" });
  }, 30_000);

  test("a parse that runs too long is cut off as a parse timeout, and the feeds behind it are still parsed", async () => {
    const parser = pool(1_000, NEVER_ENDING_PARSER);
    const [hung, after] = await Promise.allSettled([
      parser.parse({ bytes: "", url: "https://odd.example/hang" }),
      parser.parse({ bytes: "", url: "https://odd.example/next" }),
    ]);
    expect(hung).toMatchObject({ status: "rejected", reason: { code: "PARSE_TIMEOUT", message: "The feed took too long to parse (more than 1 s)" } });
    expect(isFeedParseTimeout((hung as PromiseRejectedResult).reason)).toBe(true);
    expect(after).toMatchObject({ status: "fulfilled", value: { title: "https://odd.example/next" } });
  }, 60_000);
});

describe("parsing sitemaps on the worker thread", () => {
  test("gives the same result as parsing on this thread, for sitemaps and feeds in flight together", async () => {
    const files = ["crawler-commons/sitemaps/xmlSitemap.gz", "crawler-commons/sitemaps/extension/sitemap-news.xml", "crawler-commons/sitemaps/sitemap.index.xml", "crawler-commons/sitemaps/sitemap.txt"];
    const parser = pool();
    const url = "https://odd.example/sitemap.xml";
    const feed = { bytes: readFileSync(corpusPath("miniflux/cases/rss/parser_test/TestParseRss2Sample.xml")), contentType: "application/xml", url: "https://odd.example/feed" };
    const [parsedFeed, ...sitemaps] = await Promise.all([parser.parse(feed), ...files.map((file) => parser.parseSitemap(readFileSync(corpusPath(file)), { url }))]);
    expect(parsedFeed).toEqual(parseFeed(feed));
    expect(sitemaps).toEqual(await Promise.all(files.map((file) => parseSitemap(readFileSync(corpusPath(file)), { url }))));
    expect(sitemaps.map((s) => s.kind)).toEqual(["urlset", "urlset", "index", "text"]);
  }, 30_000);

  test("a body that is not a sitemap is refused with the reader's code", async () => {
    const error = await pool()
      .parseSitemap(Buffer.from("<html><body>hello</body></html>"), { url: "https://odd.example/sitemap.xml" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SitemapError);
    expect(error).toMatchObject({ code: "NOT_A_SITEMAP" });
  }, 30_000);
});

describe("a parse timeout as editors see it", () => {
  let server: TestServer;
  let http: HttpClient;
  beforeAll(async () => {
    server = await startTestServer();
    http = testHttpClient();
    server.handle("/hang", (_req, res) => res.writeHead(200, { "content-type": "application/rss+xml" }).end(rssFeed([])));
  });
  afterAll(async () => {
    await http.close();
    await server.close();
  });

  test("an ingested feed whose parse is cut off is logged as PARSE_TIMEOUT, not as a malformed feed", async () => {
    const parser = pool(1_000, NEVER_ENDING_PARSER);
    const source = await makeSource(t.db, { sourceType: "rss", rssFeedUrl: `${server.url}/hang` });

    await runIngestionCycle({ repos: t.repos, http, logger, parseFeed: parser.parse }, { scope: "all" });

    const [log] = await t.db.select().from(feedProcessingLog);
    expect(log!.error).toBe("PARSE_TIMEOUT: The feed took too long to parse (more than 1 s)");
    const [after] = await t.db.select().from(sources).where(eq(sources.id, source.id));
    expect(after).toMatchObject({ lastError: log!.error, consecutiveErrors: 1 });
  }, 60_000);

  test("the RSS validator reports a parse cut off as PARSE_TIMEOUT", async () => {
    const parser = pool(1_000, NEVER_ENDING_PARSER);
    const result = await validateFeed({ http, parseFeed: parser.parse }, `${server.url}/hang`);
    expect(result).toMatchObject({ ok: false, code: "PARSE_TIMEOUT", error: "The feed took too long to parse (more than 1 s)" });
  }, 60_000);
});
