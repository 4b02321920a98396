import { readFileSync } from "node:fs";
import pino from "pino";
import { afterEach, describe, expect, test } from "vitest";
import { FeedParseError, parseFeed } from "~/domain/ingestion/feed/parse-feed";
import { corpusPath } from "~/test/corpora";
import { rssFeed } from "~/test/http-test-server";
import { createFeedParserPool, type FeedParserPool } from "./feed-parser-pool";

const logger = pino({ level: "silent" });
const pools: FeedParserPool[] = [];
const pool = (timeoutMs?: number) => {
  const created = createFeedParserPool({ logger, timeoutMs });
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

  test("a parse that runs too long is cut off, and the feeds behind it are still parsed", async () => {
    // Long enough for a small feed on a busy machine, far too short for 40,000 items.
    const parser = pool(1_000);
    const small = { bytes: rssFeed([{ title: "Goat elected mayor", link: "https://odd.example/goat" }]), url: null };
    await parser.parse(small); // the worker has started
    const items = Array.from({ length: 40_000 }, (_, i) => ({ title: `Item ${i}`, link: `https://odd.example/${i}`, content: "<p>word </p>".repeat(20) }));
    const [huge, after] = await Promise.allSettled([parser.parse({ bytes: rssFeed(items), url: null }), parser.parse(small)]);
    expect(huge).toMatchObject({ status: "rejected", reason: { code: "MALFORMED_FEED" } });
    expect(after).toMatchObject({ status: "fulfilled", value: { items: [{ title: "Goat elected mayor" }] } });
  }, 60_000);
});
