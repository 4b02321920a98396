import { asc } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { scrapedCandidates, stories } from "~/db/schema";
import { makeRejectedStory, makeSource, makeStory } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { DomainError } from "~/domain/errors";
import { testHttpClient } from "~/integrations/http/testing";
import type { HttpClient } from "~/integrations/http/types";
import { startTestServer, type TestServer } from "~/test/http-test-server";
import { createPoliteClient } from "~/domain/crawl/polite-client";
import { fetchPageTitle } from "./page-title";
import { scrapeUrls } from "./scrape-urls";

const t = testDatabaseForFile();
const logger = pino({ level: "silent" });
let server: TestServer;
let http: HttpClient;

const paragraph = "A goat in a small Norwegian town was elected honorary mayor on Tuesday after a write-in campaign that began as a joke. ";
const article = (title: string, body = paragraph.repeat(8), head = "") => `<!doctype html><html><head><title>${title} | Odd Times</title>
<meta property="og:title" content="${title}"><meta name="description" content="What happened to ${title}.">
<meta property="og:image" content="/images/${title.length}.jpg">${head}</head>
<body><header>Menu</header><article><h1>${title}</h1>${body
  .split(". ")
  .map((s) => `<p>${s}.</p>`)
  .join("")}</article><footer>Footer</footer></body></html>`;

beforeAll(async () => {
  server = await startTestServer();
  http = testHttpClient();
  const page = (path: string, html: string, type = "text/html; charset=utf-8") =>
    server.handle(path, (_req, res) => res.writeHead(200, { "content-type": type }).end(html));
  page("/goat", article("Goat elected mayor"));
  page("/llama", article("Llama opens bakery"));
  page("/short", article("Tiny", "Too short to be a story."));
  page("/canonical", article("Canonical cat", paragraph.repeat(8), `<link rel="canonical" href="https://odd.example/cat">`));
  page("/pdf", "%PDF-1.4", "application/pdf");
  server.handle("/missing", (_req, res) => res.writeHead(404).end());
  server.handle("/to-localhost", (_req, res) => res.writeHead(302, { location: `${server.localhostUrl}/goat` }).end());
  server.handle("/to-metadata", (_req, res) => res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end());
});
afterAll(async () => {
  await http.close();
  await server.close();
});

const deps = () => ({ repos: t.repos, http, logger });
const allStories = () => t.db.select().from(stories).orderBy(asc(stories.id));

describe("manual scrape", () => {
  test("each page becomes a pending story with its extracted title, summary, image and text", async () => {
    const source = await makeSource(t.db, { sourceType: "manual", rssFeedUrl: null });
    const result = await scrapeUrls(deps(), { urls: [`${server.url}/goat`, `${server.url}/llama`], sourceId: source.id });

    expect(result, JSON.stringify(result.results)).toMatchObject({ inserted: 2, skipped: 0, failed: 0, total: 2 });
    expect(result.results.map((r) => [r.url, r.success, r.outcome])).toEqual([
      [`${server.url}/goat`, true, "inserted"],
      [`${server.url}/llama`, true, "inserted"],
    ]);
    const [goat] = await allStories();
    expect(goat).toMatchObject({
      status: "pending",
      title: "Goat elected mayor",
      summary: "What happened to Goat elected mayor.",
      imageUrl: `${server.url}/images/18.jpg`,
      originalUrl: `${server.url}/goat`,
      sourceId: source.id,
    });
    expect(goat!.content).toContain("honorary mayor");
  });

  test("stored and rejected URLs are skipped; short, missing and non-HTML pages fail", async () => {
    await makeStory(t.db, { originalUrl: `${server.url}/goat` });
    await makeRejectedStory(t.db, { originalUrl: `${server.url}/llama?utm_source=x` });

    const urls = ["goat", "llama", "short", "missing", "pdf"].map((p) => `${server.url}/${p}`);
    const result = await scrapeUrls(deps(), { urls });

    expect(result).toMatchObject({ inserted: 0, skipped: 2, failed: 3, total: 5 });
    expect(result.results.map((r) => r.outcome)).toEqual(["duplicate", "previously_rejected", "failed", "failed", "failed"]);
    expect(result.results[2]!.error).toMatch(/Too little text/);
    expect(result.results[3]!.error).toBe("HTTP 404");
    expect(await allStories()).toHaveLength(1);
    expect((await t.db.select().from(scrapedCandidates)).map((c) => c.outcome).sort()).toEqual(
      ["duplicate", "failed", "failed", "failed", "previously_rejected"],
    );
  });

  test("a source's minBodyThreshold decides what is too short", async () => {
    const lenient = await makeSource(t.db, { sourceType: "web_scraping", rssFeedUrl: null, scrapingConfig: { minBodyThreshold: 10 } });
    const result = await scrapeUrls(deps(), { urls: [`${server.url}/short`], sourceId: lenient.id });
    expect(result.inserted).toBe(1);
  });

  test("the page's canonical URL identifies the story", async () => {
    await makeStory(t.db, { originalUrl: "https://odd.example/cat" });
    const result = await scrapeUrls(deps(), { urls: [`${server.url}/canonical`] });
    expect(result.results[0]).toMatchObject({ outcome: "duplicate", success: true });
  });

  test.each([
    ["localhost", () => `${server.localhostUrl}/goat`],
    ["10.0.0.1", () => "http://10.0.0.1/goat"],
    ["169.254.169.254", () => "http://169.254.169.254/latest/meta-data/"],
    ["[::1]", () => "http://[::1]/goat"],
    ["a redirect to localhost", () => `${server.url}/to-localhost`],
    ["a redirect to 169.254.169.254", () => `${server.url}/to-metadata`],
  ])("a page at %s is refused by the guard", async (_name, url) => {
    const result = await scrapeUrls(deps(), { urls: [url()] });
    expect(result.results[0]).toMatchObject({ success: false, outcome: "failed" });
    expect(result.results[0]!.error).toMatch(/^BLOCKED_ADDRESS/);
    expect(await allStories()).toHaveLength(0);
  });

  test("an empty list or an unknown source is refused", async () => {
    await expect(scrapeUrls(deps(), { urls: [" "] })).rejects.toBeInstanceOf(DomainError);
    await expect(scrapeUrls(deps(), { urls: [`${server.url}/goat`], sourceId: 999_999 })).rejects.toMatchObject({ code: "SOURCE_NOT_FOUND" });
  });
});

describe("through the politeness gate", () => {
  test("a source's crawlDelay and User-Agent hold between its pages, and a URL robots.txt disallows is refused with the reason", async () => {
    const site = await startTestServer();
    const seen: { path: string; at: number; agent: string | undefined }[] = [];
    try {
      site.handle("/robots.txt", (req, res) => {
        seen.push({ path: "/robots.txt", at: performance.now(), agent: req.headers["user-agent"] });
        res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nDisallow: /private/\n");
      });
      for (const name of ["goat", "llama"]) {
        site.handle(`/${name}`, (req, res) => {
          seen.push({ path: `/${name}`, at: performance.now(), agent: req.headers["user-agent"] });
          res.writeHead(200, { "content-type": "text/html" }).end(article(`${name} of the gate`));
        });
      }
      const source = await makeSource(t.db, { sourceType: "manual", rssFeedUrl: null, scrapingConfig: { crawlDelay: 700, userAgent: "HarbourBot/2.0" } });
      const gate = createPoliteClient({ http, crawl: t.repos.crawl, logger, userAgent: "Oddwire/test" });
      const result = await scrapeUrls(
        { repos: t.repos, http: gate, logger },
        { urls: [`${site.url}/goat`, `${site.url}/private/page`, `${site.url}/llama`], sourceId: source.id },
      );
      expect(result).toMatchObject({ inserted: 2, failed: 1 });
      expect(result.results[1]).toMatchObject({ success: false, error: `ROBOTS_DISALLOWED: robots.txt disallows ${site.url}/private/page` });
      expect(site.hits).not.toContain("/private/page");
      expect(seen.map((s) => s.agent)).toEqual(["HarbourBot/2.0", "HarbourBot/2.0", "HarbourBot/2.0"]);
      const gaps = seen.slice(1).map((s, i) => s.at - seen[i]!.at);
      for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(695);
    } finally {
      await site.close();
    }
  });
});

describe("watchlist page titles", () => {
  test("come from the page through the guarded client", async () => {
    expect(await fetchPageTitle({ http, logger: pino() }, `${server.url}/goat`)).toEqual({ title: "Goat elected mayor" });
  });

  test.each([
    ["localhost", () => `${server.localhostUrl}/goat`],
    ["169.254.169.254", () => "http://169.254.169.254/"],
    ["10.0.0.1", () => "http://10.0.0.1/"],
    ["[::1]", () => "http://[::1]/"],
    ["a redirect to localhost", () => `${server.url}/to-localhost`],
    ["a missing page", () => `${server.url}/missing`],
  ])("are null for %s", async (_name, url) => {
    const hitsBefore = server.hits.length;
    expect(await fetchPageTitle({ http }, url())).toEqual({ title: null });
    // Nothing but the redirect itself (or the missing page) reached a server.
    const allowedHits = url().includes("/missing") || url().includes("/to-") ? 1 : 0;
    expect(server.hits.length).toBe(hitsBefore + allowedHits);
  });
});
