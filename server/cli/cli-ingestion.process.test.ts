import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { corpusPath } from "~/test/corpora";
import { rssFeed, startTestServer, type TestServer } from "~/test/http-test-server";
import { runCli, useCliEnvironment } from "~/test/cli-harness";

let server: TestServer;
const cliEnvironment = useCliEnvironment("oddwire-cli-ingest");
beforeAll(async () => {
  server = await startTestServer();
  server.handle("/feed.xml", (_req, res) =>
    res.writeHead(200, { "content-type": "application/rss+xml" }).end(rssFeed([{ title: "Goat elected mayor", link: "https://odd.example/goat" }, { title: "Llama bakes", link: "https://odd.example/llama" }], "CLI feed")),
  );
});
afterAll(() => server.close());

describe("feed and page commands", () => {
  test("help lists the ingestion commands", async () => {
    const help = (await runCli(["--help"])).out.join("\n");
    for (const command of ["parse-feed", "validate-feed", "extract", "source:add", "ingest"]) expect(help).toMatch(new RegExp(`^\\s+${command}\\b`, "m"));
  });

  test("parse-feed prints a feed file as {format, title, siteUrl, items} with the item fields in order", async () => {
    const { code, json } = await runCli(["parse-feed", corpusPath("miniflux/cases/rss/parser_test/TestParseRss2Sample.xml")]);
    expect(code).toBe(0);
    const feed = json() as { format: string; title: string; siteUrl: string; items: Record<string, unknown>[] };
    expect(Object.keys(feed)).toEqual(["format", "title", "siteUrl", "items"]);
    expect(feed.format).toBe("rss");
    expect(feed.title).toBe("Liftoff News");
    expect(feed.items.length).toBeGreaterThan(0);
    expect(Object.keys(feed.items[0]!)).toEqual(["title", "link", "guid", "publishedAt", "summary", "contentHtml", "imageUrl"]);
  });

  test("parse-feed fetches a URL through the guarded client", async () => {
    const { code, json } = await runCli(["parse-feed", `${server.url}/feed.xml`]);
    expect(code).toBe(0);
    expect(json()).toMatchObject({ title: "CLI feed", items: [{ title: "Goat elected mayor" }, { title: "Llama bakes" }] });
  });

  test("validate-feed prints the validator's result; a refused address exits 1 with its code", async () => {
    const good = await runCli(["validate-feed", `${server.url}/feed.xml`]);
    expect(good.code).toBe(0);
    expect(good.json()).toMatchObject({ ok: true, type: "RSS 2.0", info: { title: "CLI feed", itemsCount: 2 } });
    const refused = await runCli(["validate-feed", `${server.localhostUrl}/feed.xml`]);
    expect(refused.code).toBe(1);
    expect(refused.json()).toMatchObject({ ok: false, code: "BLOCKED_ADDRESS" });
  });

  test("extract prints an article file's fields with URLs resolved against --base-url", async () => {
    const file = path.join(cliEnvironment.dataDir(), "page.html");
    writeFileSync(
      file,
      `<html><head><title>Goat | Odd</title><meta property="og:title" content="Goat elected mayor"><link rel="canonical" href="/goat">
       <meta property="og:image" content="img/goat.jpg"><meta name="description" content="A goat won."></head>
       <body><article><p>${"The goat won the vote. ".repeat(30)}</p></article></body></html>`,
    );
    const { code, json } = await runCli(["extract", file, "--base-url", "https://odd.example/news/"]);
    expect(code).toBe(0);
    const result = json();
    expect(Object.keys(result)).toEqual(["title", "summary", "imageUrl", "canonicalUrl", "publishedAt", "text"]);
    expect(result).toMatchObject({ title: "Goat elected mayor", summary: "A goat won.", canonicalUrl: "https://odd.example/goat", imageUrl: "https://odd.example/news/img/goat.jpg" });
    expect(result.text).toContain("The goat won the vote.");
  });
});

describe("source:add and ingest", () => {
  test("a source added from the command line is ingested; a second cycle adds nothing", async () => {
    const added = await runCli(["source:add", "--name", "Odd Feed", "--type", "rss", "--feed", `${server.url}/feed.xml`, "--include", "goat, llama", "--exclude", "bakes"]);
    expect(added.code).toBe(0);
    expect(added.json()).toMatchObject({ name: "Odd Feed", sourceType: "rss", rssFeedUrl: `${server.url}/feed.xml`, includeKeywords: ["goat", "llama"], excludeKeywords: ["bakes"] });

    const first = await runCli(["ingest"]);
    expect(first.code).toBe(0);
    expect(first.json()).toEqual({ sources_processed: 1, total_items_found: 2, total_items_processed: 1 });
    const second = await runCli(["ingest"]);
    expect(second.json()).toEqual({ sources_processed: 1, total_items_found: 2, total_items_processed: 0 });
  }, 90_000);

  test("an RSS source without a feed URL is refused with the form's message", async () => {
    const { code, error } = await runCli(["source:add", "--name", "No feed", "--type", "rss"]);
    expect(code).toBe(1);
    expect(error().message).toMatch(/feed/i);
  }, 60_000);
});
