import { gzipSync } from "node:zlib";
import { asc, eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { feedProcessingLog, scrapedCandidates, sources, stories } from "~/db/schema";
import { makeRejectedStory, makeSource, makeStory } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { testHttpClient } from "~/integrations/http/testing";
import type { HttpClient } from "~/integrations/http/types";
import { normalizeUrl } from "~/lib/normalize-url";
import { rssFeed, startTestServer, type TestServer } from "~/test/http-test-server";
import type { Clock } from "~/lib/clock";
import { SOURCE_LEASE_MS as LEASE_MS } from "~/domain/sources/lease";
import { ingestSource, runIngestionCycle } from "./ingest";

const t = testDatabaseForFile();
const logger = pino({ level: "silent" });
let server: TestServer;
let http: HttpClient;

beforeAll(async () => {
  server = await startTestServer();
  http = testHttpClient({ maxBodyBytes: 256 * 1024 });
});
afterAll(async () => {
  await http.close();
  await server.close();
});
afterEach(() => {
  server.hits.length = 0;
});

const deps = (overrides: { now?: Clock; random?: () => number } = {}) => ({ repos: t.repos, http, logger, random: () => 0.5, ...overrides });
const serveFeed = (pathname: string, body: string, headers: Record<string, string> = {}) =>
  server.handle(pathname, (_req, res) => res.writeHead(200, { "content-type": "application/rss+xml", ...headers }).end(body));
const rssSource = (pathname: string, overrides: Parameters<typeof makeSource>[1] = {}) =>
  makeSource(t.db, { sourceType: "rss", rssFeedUrl: `${server.url}${pathname}`, ...overrides });
const allStories = () => t.db.select().from(stories).orderBy(asc(stories.id));

const THREE = [
  { title: "Goat elected mayor", link: "https://odd.example/goat", content: "<p>The goat <b>won</b>.<script>alert(1)</script></p>", image: "https://odd.example/goat.jpg" },
  { title: "Llama opens a bakery", link: "https://odd.example/llama?utm_source=rss" },
  { title: "Cat learns to fax", link: "https://odd.example/cat" },
];

describe("RSS ingestion", () => {
  test("each new item becomes a pending story with its fields, and the run is recorded", async () => {
    serveFeed("/three.xml", rssFeed(THREE));
    const source = await rssSource("/three.xml");

    const result = await runIngestionCycle(deps(), { scope: "all" });

    expect(result).toEqual({ sources_processed: 1, total_items_found: 3, total_items_processed: 3 });
    const rows = await allStories();
    expect(rows.map((s) => s.title)).toEqual(["Goat elected mayor", "Llama opens a bakery", "Cat learns to fax"]);
    const goat = rows[0]!;
    expect(goat).toMatchObject({
      status: "pending",
      sourceId: source.id,
      originalUrl: "https://odd.example/goat",
      imageUrl: "https://odd.example/goat.jpg",
      summary: "About Goat elected mayor.",
      slug: "goat-elected-mayor",
      publishDate: null,
    });
    expect(goat.content).toContain("<b>won</b>");
    expect(goat.content).not.toContain("script");
    const llamaUrl = normalizeUrl("https://odd.example/llama?utm_source=rss");
    expect(llamaUrl.ok && rows[1]!.urlHash === llamaUrl.hash).toBe(true);

    const [log] = await t.db.select().from(feedProcessingLog);
    expect(log).toMatchObject({ sourceId: source.id, httpStatus: 200, itemsFound: 3, itemsInserted: 3, error: null, notModified: false });
    const candidates = await t.db.select().from(scrapedCandidates);
    expect(candidates.map((c) => c.outcome)).toEqual(["inserted", "inserted", "inserted"]);
    const [after] = await t.db.select().from(sources).where(eq(sources.id, source.id));
    expect(after).toMatchObject({ status: "active", consecutiveErrors: 0, lastError: null, lastHttpStatus: 200, leaseUntil: null });
    expect(after!.lastFetchedAt).not.toBeNull();
  });

  test("running it again inserts nothing new, and a 304 answer to the conditional GET is recorded as not modified", async () => {
    let conditional = 0;
    server.handle("/etag.xml", (req, res) => {
      if (req.headers["if-none-match"] === '"v1"') {
        conditional++;
        return res.writeHead(304, { etag: '"v1"' }).end();
      }
      res.writeHead(200, { "content-type": "application/rss+xml", etag: '"v1"' }).end(rssFeed(THREE));
    });
    serveFeed("/no-etag.xml", rssFeed([{ title: "Owl posts letters", link: "https://odd.example/owl" }, { title: "Newt joins council", link: "https://odd.example/newt" }]));
    await rssSource("/etag.xml");
    await rssSource("/no-etag.xml");

    const first = await runIngestionCycle(deps(), { scope: "all" });
    const second = await runIngestionCycle(deps(), { scope: "all" });

    expect(first.total_items_processed).toBe(5);
    expect(second).toEqual({ sources_processed: 2, total_items_found: 2, total_items_processed: 0 });
    expect(await allStories()).toHaveLength(5);
    expect(conditional).toBe(1);
    const logs = await t.db.select().from(feedProcessingLog).orderBy(asc(feedProcessingLog.id));
    expect(logs.filter((l) => l.notModified)).toHaveLength(1);
    const outcomes = (await t.db.select().from(scrapedCandidates)).map((c) => c.outcome);
    expect(outcomes.filter((o) => o === "duplicate")).toHaveLength(2);
  });

  test("URLs already stored (in any spelling) or rejected before are skipped", async () => {
    await makeStory(t.db, { originalUrl: "https://www.odd.example/goat/#comments" });
    await makeRejectedStory(t.db, { originalUrl: "https://odd.example/cat" });
    serveFeed("/known.xml", rssFeed(THREE));
    await rssSource("/known.xml");

    const result = await runIngestionCycle(deps(), { scope: "all" });

    expect(result.total_items_processed).toBe(1);
    const candidates = await t.db.select().from(scrapedCandidates).orderBy(asc(scrapedCandidates.id));
    expect(candidates.map((c) => c.outcome)).toEqual(["duplicate", "inserted", "previously_rejected"]);
  });

  test("include and exclude keywords decide which items are kept", async () => {
    serveFeed("/keywords.xml", rssFeed(THREE));
    await rssSource("/keywords.xml", { includeKeywords: ["GOAT", "llama", "cat"], excludeKeywords: ["bakery"] });

    await runIngestionCycle(deps(), { scope: "all" });

    expect((await allStories()).map((s) => s.title)).toEqual(["Goat elected mayor", "Cat learns to fax"]);
    const filtered = (await t.db.select().from(scrapedCandidates)).filter((c) => c.outcome === "filtered_out");
    expect(filtered.map((c) => c.reason)).toEqual(['excluded by keyword "bakery"']);
  });

  test("an item without a link is recorded as failed; the same link twice in a feed is stored once", async () => {
    serveFeed("/odd.xml", rssFeed([{ title: "No link here" }, ...THREE.slice(0, 1), { title: "Goat again", link: "https://odd.example/goat?fbclid=x" }]));
    await rssSource("/odd.xml");

    const result = await runIngestionCycle(deps(), { scope: "all" });

    expect(result).toMatchObject({ total_items_found: 3, total_items_processed: 1 });
    const outcomes = (await t.db.select().from(scrapedCandidates).orderBy(asc(scrapedCandidates.id))).map((c) => c.outcome);
    expect(outcomes).toEqual(["failed", "inserted", "duplicate"]);
  });

  test("two runners at once never insert a duplicate", async () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ title: `Odd thing ${i}`, link: `https://odd.example/thing/${i}` }));
    serveFeed("/race.xml", rssFeed(many));
    // Two sources share most of their items, and each source is also run twice at the same moment.
    const a = await rssSource("/race.xml");
    const b = await rssSource("/race.xml");
    const runs = await Promise.all([a, b, a, b].map((source) => ingestSource(deps(), source, { useCanonical: false })));

    expect(await allStories()).toHaveLength(30);
    expect(runs.reduce((n, r) => n + r.inserted, 0)).toBe(30);
    const both = await Promise.all([runIngestionCycle(deps(), { scope: "all" }), runIngestionCycle(deps(), { scope: "all" })]);
    expect(both.reduce((n, r) => n + r.sources_processed, 0)).toBe(2);
    expect(await allStories()).toHaveLength(30);
  });

  test("titles that make the same slug get distinct slugs", async () => {
    serveFeed("/slugs.xml", rssFeed([{ title: "Same title!", link: "https://odd.example/1" }, { title: "Same title?", link: "https://odd.example/2" }]));
    await makeStory(t.db, { title: "Same title", slug: "same-title" });
    await rssSource("/slugs.xml");

    await runIngestionCycle(deps(), { scope: "all" });

    const slugs = (await allStories()).map((s) => s.slug);
    expect(new Set(slugs).size).toBe(3);
    expect(slugs.slice(1).every((s) => s.startsWith("same-title-"))).toBe(true);
  });

  test("inactive and non-RSS sources are not polled", async () => {
    serveFeed("/quiet.xml", rssFeed(THREE));
    await rssSource("/quiet.xml", { status: "inactive" });
    await makeSource(t.db, { sourceType: "manual", rssFeedUrl: `${server.url}/quiet.xml` });

    expect(await runIngestionCycle(deps(), { scope: "all" })).toEqual({ sources_processed: 0, total_items_found: 0, total_items_processed: 0 });
    expect(server.hits).toEqual([]);
  });

  test("progress is reported source by source", async () => {
    serveFeed("/p.xml", rssFeed(THREE.slice(0, 1)));
    await rssSource("/p.xml");
    await rssSource("/p.xml");
    const seen: string[] = [];
    await runIngestionCycle(deps(), { scope: "all", onProgress: ({ done, total }) => void seen.push(`${done}/${total}`) });
    expect(seen).toEqual(["0/2", "1/2", "2/2"]);
  });
});

describe("polling schedule, back-off and error status", () => {
  test("a due-only cycle polls a source again only after its interval", async () => {
    serveFeed("/due.xml", rssFeed(THREE.slice(0, 1)));
    await rssSource("/due.xml", { pollIntervalMinutes: 30 });
    let now = new Date("2026-03-01T12:00:00Z");
    const clock = () => now.getTime();

    expect((await runIngestionCycle(deps({ now: clock }), { scope: "due" })).sources_processed).toBe(1);
    now = new Date("2026-03-01T12:29:00Z");
    expect((await runIngestionCycle(deps({ now: clock }), { scope: "due" })).sources_processed).toBe(0);
    now = new Date("2026-03-01T12:31:00Z");
    expect((await runIngestionCycle(deps({ now: clock }), { scope: "due" })).sources_processed).toBe(1);
  });

  test("failures back off, the third in a row sets status error with the last error, and a success restores it", async () => {
    let failing = true;
    server.handle("/flaky.xml", (_req, res) => {
      if (failing) return res.writeHead(500, { "content-type": "text/plain" }).end("boom");
      res.writeHead(200, { "content-type": "application/rss+xml" }).end(rssFeed(THREE.slice(0, 1)));
    });
    const source = await rssSource("/flaky.xml", { pollIntervalMinutes: 30 });
    let now = new Date("2026-03-01T12:00:00Z");
    const clock = () => now.getTime();
    const state = async () => (await t.db.select().from(sources).where(eq(sources.id, source.id)))[0]!;
    const minutesUntilNext = async () => ((await state()).nextCheckAt!.getTime() - now.getTime()) / 60_000;

    const delays: number[] = [];
    const statuses: string[] = [];
    for (let i = 0; i < 3; i++) {
      await runIngestionCycle(deps({ now: clock }), { scope: "due" });
      delays.push(await minutesUntilNext());
      statuses.push((await state()).status);
      now = (await state()).nextCheckAt!;
    }
    expect(delays).toEqual([30, 60, 120]);
    expect(statuses).toEqual(["active", "active", "error"]);
    expect(await state()).toMatchObject({ consecutiveErrors: 3, lastError: "HTTP 500 from the feed", lastHttpStatus: 500 });

    // A source in error is still polled (never silently dropped) and comes back by itself.
    failing = false;
    await runIngestionCycle(deps({ now: clock }), { scope: "due" });
    expect(await state()).toMatchObject({ status: "active", consecutiveErrors: 0, lastError: null });
    const logs = await t.db.select().from(feedProcessingLog).orderBy(asc(feedProcessingLog.id));
    expect(logs.map((l) => l.error)).toEqual(["HTTP 500 from the feed", "HTTP 500 from the feed", "HTTP 500 from the feed", null]);
  });

  test("a 503 with Retry-After waits as long as the server asks", async () => {
    server.handle("/busy.xml", (_req, res) => res.writeHead(503, { "retry-after": "7200" }).end());
    const source = await rssSource("/busy.xml");
    const now = new Date("2026-03-01T12:00:00Z");
    await runIngestionCycle(deps({ now: () => now.getTime() }), { scope: "all" });
    const [after] = await t.db.select().from(sources).where(eq(sources.id, source.id));
    expect((after!.nextCheckAt!.getTime() - now.getTime()) / 60_000).toBe(120);
  });

  test("Cache-Control max-age on a good answer delays the next poll", async () => {
    serveFeed("/cached.xml", rssFeed(THREE.slice(0, 1)), { "cache-control": "max-age=5400" });
    const source = await rssSource("/cached.xml");
    const now = new Date("2026-03-01T12:00:00Z");
    await runIngestionCycle(deps({ now: () => now.getTime() }), { scope: "all" });
    const [after] = await t.db.select().from(sources).where(eq(sources.id, source.id));
    expect((after!.nextCheckAt!.getTime() - now.getTime()) / 60_000).toBe(90);
  });
});

describe("hostile feeds and the SSRF guard", () => {
  test("a huge, bombed, looping, dripping or broken feed never stops a cycle", async () => {
    server.handle("/huge.xml", (_req, res) => {
      res.writeHead(200, { "content-type": "application/rss+xml" });
      res.end(Buffer.alloc(1024 * 1024, "a"));
    });
    const bomb = gzipSync(Buffer.alloc(20 * 1024 * 1024, " "));
    server.handle("/bomb.xml", (_req, res) => {
      res.writeHead(200, { "content-type": "application/rss+xml", "content-encoding": "gzip" });
      res.end(bomb);
    });
    server.handle("/loop.xml", (_req, res) => res.writeHead(302, { location: "/loop.xml" }).end());
    server.handle("/drip.xml", (_req, res) => {
      res.writeHead(200, { "content-type": "application/rss+xml" });
      const timer = setInterval(() => res.write(" "), 100);
      res.on("close", () => clearInterval(timer));
    });
    server.handle("/broken.xml", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<html><body>Not a feed</body></html>"));
    serveFeed("/good.xml", rssFeed(THREE));
    for (const path of ["/huge.xml", "/bomb.xml", "/loop.xml", "/drip.xml", "/broken.xml", "/good.xml"]) await rssSource(path);

    // A short total time limit, so the slow drip is cut off quickly.
    const impatient = testHttpClient({ timeoutMs: 1_500, maxBodyBytes: 256 * 1024 });
    const result = await runIngestionCycle({ ...deps(), http: impatient }, { scope: "all" }).finally(() => impatient.close());

    expect(result).toEqual({ sources_processed: 6, total_items_found: 3, total_items_processed: 3 });
    const errors = (await t.db.select().from(sources).orderBy(asc(sources.id))).map((s) => s.lastError?.split(":")[0] ?? null);
    expect(errors.slice(0, 4)).toEqual(["BODY_TOO_LARGE", "BODY_TOO_LARGE", "TOO_MANY_REDIRECTS", "TIMEOUT"]);
    expect(errors[4]).not.toBeNull();
    expect(errors[5]).toBeNull();
  });

  test.each([
    ["localhost", () => `${server.localhostUrl}/feed.xml`],
    ["10.0.0.1", () => "http://10.0.0.1/feed.xml"],
    ["169.254.169.254", () => "http://169.254.169.254/latest/meta-data/"],
    ["[::1]", () => "http://[::1]/feed.xml"],
    ["a redirect to localhost", () => `${server.url}/to-localhost`],
    ["a redirect to the metadata address", () => `${server.url}/to-metadata`],
  ])("a feed at %s is refused and the source records why", async (_name, feedUrl) => {
    server.handle("/to-localhost", (_req, res) => res.writeHead(302, { location: `${server.localhostUrl}/feed.xml` }).end());
    server.handle("/to-metadata", (_req, res) => res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end());
    serveFeed("/feed.xml", rssFeed(THREE));
    const source = await makeSource(t.db, { sourceType: "rss", rssFeedUrl: feedUrl() });

    await runIngestionCycle(deps(), { scope: "all" });

    expect(server.hits).not.toContain("/feed.xml");
    const [after] = await t.db.select().from(sources).where(eq(sources.id, source.id));
    expect(after!.lastError).toMatch(/^BLOCKED_ADDRESS/);
    expect(await allStories()).toHaveLength(0);
  });
});

describe("use_canonical", () => {
  test("a new item's rel=canonical replaces its feed link; a refused canonical look-up keeps the feed link", async () => {
    server.handle("/article", (_req, res) =>
      res
        .writeHead(200, { "content-type": "text/html" })
        .end(`<html><head><link rel="canonical" href="https://odd.example/canonical-goat"></head><body>Goat</body></html>`),
    );
    serveFeed(
      "/canonical.xml",
      rssFeed([
        { title: "Goat", link: `${server.url}/article?from=rss` },
        { title: "Hidden", link: `${server.localhostUrl}/article` },
      ]),
    );
    await rssSource("/canonical.xml");

    await runIngestionCycle(deps(), { scope: "all", useCanonical: true });

    const rows = await allStories();
    expect(rows.map((s) => s.originalUrl)).toEqual(["https://odd.example/canonical-goat", `${server.localhostUrl}/article`]);
    expect(server.hits.filter((h) => h === "/article")).toHaveLength(1);
  });

  test("an item whose canonical URL is already a story is a duplicate", async () => {
    await makeStory(t.db, { originalUrl: "https://odd.example/canonical-goat" });
    server.handle("/article2", (_req, res) =>
      res.writeHead(200, { "content-type": "text/html" }).end(`<link rel="canonical" href="https://odd.example/canonical-goat">`),
    );
    serveFeed("/canonical2.xml", rssFeed([{ title: "Goat", link: `${server.url}/article2` }]));
    await rssSource("/canonical2.xml");

    const result = await runIngestionCycle(deps(), { scope: "all", useCanonical: true });

    expect(result.total_items_processed).toBe(0);
    expect((await t.db.select().from(scrapedCandidates))[0]!.outcome).toBe("duplicate");
  });
});

describe("stopping a cycle", () => {
  test("a cycle stopped from outside counts nothing against its sources and leaves them for the next runner", async () => {
    server.handle("/stall.xml", (_req, res) => {
      res.writeHead(200, { "content-type": "application/rss+xml" });
      res.write("<rss>");
    });
    const stalled = await rssSource("/stall.xml");
    const waiting = await rssSource("/stall.xml");
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 300);

    const result = await runIngestionCycle(deps(), { scope: "all", signal: stop.signal, concurrency: 1 });

    expect(result.total_items_processed).toBe(0);
    const rows = await t.db.select().from(sources).orderBy(asc(sources.id));
    for (const row of rows) expect(row).toMatchObject({ consecutiveErrors: 0, lastError: null, leaseUntil: null, lastFetchedAt: null });
    expect(rows.map((r) => r.id)).toEqual([stalled.id, waiting.id]);
    expect(await t.db.select().from(feedProcessingLog)).toEqual([]);
  });
});

describe("leases", () => {
  test("a running cycle keeps renewing its sources' leases: another runner meanwhile skips them, and they are free when it ends", async () => {
    // The feed answers when the test says so: the first cycle is busy with its source until then.
    let answerFeed = () => {};
    const feedAsked = new Promise<void>((asked) => {
      server.handle("/slow-lease.xml", (_req, res) => {
        answerFeed = () => res.writeHead(200, { "content-type": "application/rss+xml" }).end(rssFeed(THREE));
        asked();
      });
    });
    const source = await rssSource("/slow-lease.xml");
    const leaseUntil = async () => (await t.db.select({ leaseUntil: sources.leaseUntil }).from(sources).where(eq(sources.id, source.id)))[0]?.leaseUntil?.getTime();
    let at = Date.parse("2026-03-01T12:00:00Z");
    const clock = () => at;
    const first = runIngestionCycle(deps({ now: clock }), { scope: "all", leaseMs: 400, leaseRenewMs: 20 });
    try {
      await feedAsked;
      // Well past the first lease (it ran to 12:00:00.400): only a renewal keeps the source taken.
      at += 800;
      await expect.poll(leaseUntil, { timeout: 5_000 }).toBe(at + 400);
      const second = await runIngestionCycle(deps({ now: clock }), { scope: "all", leaseMs: 400, leaseRenewMs: 20 });
      expect(second.sources_processed).toBe(0);
    } finally {
      answerFeed();
    }
    expect((await first).sources_processed).toBe(1);
    const [row] = await t.db.select().from(sources).where(eq(sources.id, source.id));
    expect(row?.leaseUntil).toBeNull();
  });

  test("the sources of a runner that died are free again within a minute", async () => {
    const source = await rssSource("/lease-orphan.xml");
    serveFeed("/lease-orphan.xml", rssFeed(THREE));
    const now = new Date();
    // A runner claimed it and was killed before finishing or giving it back.
    await t.repos.ingestion.claimSources({ scope: "all", now, leaseUntil: new Date(now.getTime() + LEASE_MS) });
    expect((await runIngestionCycle(deps(), { scope: "all" })).sources_processed).toBe(0);
    const aMinuteLater = () => now.getTime() + 60_001;
    expect((await runIngestionCycle(deps({ now: aMinuteLater }), { scope: "all" })).sources_processed).toBe(1);
    expect(LEASE_MS).toBeLessThanOrEqual(60_000);
    const [row] = await t.db.select().from(sources).where(eq(sources.id, source.id));
    expect(row?.lastFetchedAt).not.toBeNull();
  });
});

describe("failures of our own", () => {
  // A real database error, raised by the database itself for the table named.
  const failWrites = async (table: "stories" | "feed_processing_log", message: string) => {
    await t.database.exec(`
      CREATE OR REPLACE FUNCTION test_refuse_write() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION '${message}'; END $$;
      CREATE TRIGGER test_refuse_write BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION test_refuse_write();`);
    return () => t.database.exec(`DROP TRIGGER test_refuse_write ON ${table}; DROP FUNCTION test_refuse_write();`);
  };

  test("a failure to report progress neither rejects the cycle nor stops the other sources", async () => {
    serveFeed("/progress.xml", rssFeed(THREE.slice(0, 1)));
    await rssSource("/progress.xml");
    await rssSource("/progress.xml");
    const onProgress = ({ done }: { done: number }) => {
      if (done === 1) throw new Error("the jobs table is unavailable");
    };

    const result = await runIngestionCycle(deps(), { scope: "all", onProgress, concurrency: 1 });

    expect(result).toMatchObject({ sources_processed: 2, total_items_processed: 1 });
    const rows = await t.db.select().from(sources);
    expect(rows.map((r) => r.leaseUntil)).toEqual([null, null]);
    expect(await t.db.select().from(feedProcessingLog)).toHaveLength(2);
  });

  test("a cycle stopped early while a lane fails still gives back the sources it did not start", async () => {
    serveFeed("/stop.xml", rssFeed(THREE.slice(0, 1)));
    await rssSource("/stop.xml");
    const waiting = await rssSource("/stop.xml");
    const stop = new AbortController();
    const onProgress = ({ done }: { done: number }) => {
      if (done !== 1) return;
      stop.abort();
      throw new Error("the jobs table is unavailable");
    };

    await expect(runIngestionCycle(deps(), { scope: "all", onProgress, concurrency: 1, signal: stop.signal })).resolves.toMatchObject({ sources_processed: 1 });

    const [after] = await t.db.select().from(sources).where(eq(sources.id, waiting.id));
    expect(after).toMatchObject({ leaseUntil: null, lastFetchedAt: null });
  });

  test("a source whose run cannot be recorded is released, and the cycle settles after every other source", async () => {
    serveFeed("/recorded.xml", rssFeed(THREE.slice(0, 1)));
    const claimed = [await rssSource("/recorded.xml"), await rssSource("/recorded.xml"), await rssSource("/recorded.xml")];
    const restore = await failWrites("feed_processing_log", "could not write to the log");
    let result;
    try {
      result = await runIngestionCycle(deps(), { scope: "all", concurrency: 2 });
    } finally {
      await restore();
    }

    expect(result.sources_processed).toBe(0);
    const rows = await t.db.select().from(sources).orderBy(asc(sources.id));
    expect(rows.map((r) => [r.id, r.leaseUntil, r.consecutiveErrors])).toEqual(claimed.map((s) => [s.id, null, 0]));
  });

  test("a database that cannot store items never counts against the feed, and the feed is retried soon with its items", async () => {
    server.handle("/healthy.xml", (req, res) => {
      if (req.headers["if-none-match"] === '"v1"') return res.writeHead(304, { etag: '"v1"' }).end();
      res.writeHead(200, { "content-type": "application/rss+xml", etag: '"v1"' }).end(rssFeed(THREE));
    });
    const source = await rssSource("/healthy.xml", { pollIntervalMinutes: 60 });
    let now = new Date("2026-03-01T12:00:00Z");
    const clock = () => now.getTime();
    const state = async () => (await t.db.select().from(sources).where(eq(sources.id, source.id)))[0]!;

    const restore = await failWrites("stories", "could not extend file: No space left on device");
    try {
      for (let i = 0; i < 4; i++) {
        await runIngestionCycle(deps({ now: clock }), { scope: "due" });
        const after = await state();
        expect(after).toMatchObject({ status: "active", consecutiveErrors: 0, lastError: null, leaseUntil: null, etag: null });
        expect((after.nextCheckAt!.getTime() - now.getTime()) / 60_000).toBeLessThanOrEqual(5);
        now = after.nextCheckAt!;
      }
    } finally {
      await restore();
    }
    const logs = await t.db.select().from(feedProcessingLog).orderBy(asc(feedProcessingLog.id));
    expect(logs.map((l) => l.error)).toEqual(Array(4).fill(expect.stringMatching(/^Could not store the items: .*No space left on device/)));

    // Once the database is back, the next run stores what the failed ones could not.
    await runIngestionCycle(deps({ now: clock }), { scope: "due" });
    expect(await allStories()).toHaveLength(3);
    expect(await state()).toMatchObject({ status: "active", consecutiveErrors: 0, etag: '"v1"' });
  });
});
