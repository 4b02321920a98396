import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { corpusPath } from "~/test/corpora";
import { startTestServer, type TestServer } from "~/test/http-test-server";
import { runCli, useCliEnvironment } from "~/test/cli-harness";

const paragraph = "A lighthouse keeper's cat has been named honorary harbour master after it guided three lost kayakers home in fog. ";
const article = (title: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><article><h1>${title}</h1>${`<p>${paragraph}</p>`.repeat(8)}</article></body></html>`;

let site: TestServer;
useCliEnvironment("oddwire-cli-crawl");
beforeAll(async () => {
  site = await startTestServer();
  const send = (p: string, body: string, type: string) => site.handle(p, (_req, res) => res.writeHead(200, { "content-type": type }).end(body));
  send("/robots.txt", "User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n", "text/plain");
  send(
    "/sitemap.xml",
    `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
      <url><loc>${site.url}/cat</loc><lastmod>2026-11-22</lastmod></url>
      <url><loc>${site.url}/private/diary</loc></url></urlset>`,
    "application/xml",
  );
  send("/cat", article("Cat named harbour master"), "text/html");
});
afterAll(() => site.close());

describe("crawl commands", () => {
  test("help lists them", async () => {
    const help = (await runCli(["--help"])).out.join("\n");
    for (const command of ["discover", "queue", "scrape-queue", "parse-sitemap", "robots-check"]) expect(help).toMatch(new RegExp(`^\\s+${command}\\b`, "m"));
  });

  test("parse-sitemap reads a sitemap index file as {kind, urls, sitemaps}", async () => {
    const { code, json } = await runCli(["parse-sitemap", corpusPath("crawler-commons/sitemaps/sitemap.index.xml")]);
    expect(code).toBe(0);
    const parsed = json() as { kind: string; urls: unknown[]; sitemaps: { loc: string; lastmod: string | null }[] };
    expect(Object.keys(parsed)).toEqual(["kind", "urls", "sitemaps"]);
    expect(parsed.kind).toBe("index");
    expect(parsed.sitemaps[0]).toEqual({ loc: "https://example.com/sitemap.jss?portalCode=10260&lang=en", lastmod: null });
  });

  test("parse-sitemap reads a news sitemap with each URL's publication date and title", async () => {
    const { code, json } = await runCli(["parse-sitemap", corpusPath("crawler-commons/sitemaps/extension/sitemap-news.xml")]);
    expect(code).toBe(0);
    const parsed = json() as { kind: string; urls: { loc: string; news: { title: string | null; publicationDate: string | null } | null }[] };
    expect(parsed.kind).toBe("urlset");
    expect(parsed.urls[0]?.news?.title).toBeTruthy();
    expect(parsed.urls[0]?.news?.publicationDate).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  test("robots-check prints one line per URL with the agent's decision and Crawl-delay", async () => {
    const { code, out } = await runCli([
      "robots-check",
      corpusPath("crawler-commons/robots/crawl-delay-group-merging.txt"),
      "--agent",
      "mybot",
      "https://example.com/private/x",
      "https://example.com/public",
    ]);
    expect(code).toBe(0);
    expect(out.map((l) => JSON.parse(l))).toEqual([
      { url: "https://example.com/private/x", allowed: false, crawlDelay: 10 },
      { url: "https://example.com/public", allowed: true, crawlDelay: 10 },
    ]);
  });

  test("robots-check fetches a robots.txt URL through the guarded client", async () => {
    const { out } = await runCli(["robots-check", `${site.url}/robots.txt`, "--agent", "Oddwire/1.0", `${site.url}/private/a`, `${site.url}/cat`]);
    expect(out.map((l) => JSON.parse(l))).toEqual([
      { url: `${site.url}/private/a`, allowed: false, crawlDelay: 2 },
      { url: `${site.url}/cat`, allowed: true, crawlDelay: 2 },
    ]);
  });

  test("source:add --config, discover, queue and scrape-queue take a site from URLs to a pending story", async () => {
    const added = await runCli(["source:add", "--name", "Harbour News", "--type", "web_scraping", "--website", site.url, "--config", '{"crawlDelay": 0}']);
    expect(added.code).toBe(0);
    const source = added.json() as { id: number; scrapingConfig: Record<string, unknown> };
    expect(source.scrapingConfig).toEqual({ crawlDelay: 0 });

    // robots.txt asks for 2 s between requests; they hold across commands, through the database.
    const discovered = await runCli(["discover", "--source", String(source.id)]);
    expect(discovered.code).toBe(0);
    const cycle = discovered.json() as { sources: Record<string, unknown>[] };
    expect(cycle.sources).toEqual([expect.objectContaining({ source_id: source.id, found: 2, queued: 1, skipped_robots: 1, skipped_known: 0, errors: [] })]);

    const queue = await runCli(["queue", "--source", String(source.id)]);
    const rows = JSON.parse(queue.out.join("")) as { id: number; url: string; lastmod: string; status: string }[];
    expect(rows).toEqual([expect.objectContaining({ url: `${site.url}/cat`, status: "queued", lastmod: "2026-11-22T00:00:00.000Z" })]);

    const scraped = await runCli(["scrape-queue", "--ids", String(rows[0]!.id)]);
    expect(scraped.code).toBe(0);
    expect(scraped.json()).toMatchObject({ succeeded: 1, failed: 0, results: [{ url: `${site.url}/cat`, success: true, outcome: "inserted" }] });
    expect(JSON.parse((await runCli(["queue", "--status", "scraped"])).out.join(""))).toHaveLength(1);
    // robots.txt is a request too: the sitemap came its 2 s Crawl-delay after it.
  }, 60_000);

  test("a bad --status is a usage error", async () => {
    const { code, err } = await runCli(["queue", "--status", "pending"]);
    expect(code).toBe(2);
    expect(err[0]).toMatch(/--status must be one of queued, scraped, failed, all/);
  });
});

