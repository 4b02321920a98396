import { eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { crawlHosts } from "~/db/schema";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { isFetchError } from "~/integrations/http/fetch-error";
import { testHttpClient } from "~/integrations/http/testing";
import type { HttpClient } from "~/integrations/http/types";
import { freePort, startTestServer, type TestServer } from "~/test/http-test-server";
import { createPoliteClient, pauseAfter } from "./polite-client";

const t = testDatabaseForFile();
const logger = pino({ level: "silent" });
const AGENT = "Oddwire/test (+http://127.0.0.1)";
let site: TestServer;
let http: HttpClient;
/** Each request's path and arrival time, as the site saw them. */
const arrivals: { path: string; at: number }[] = [];
let robotsTxt = { status: 200, body: "User-agent: *\nDisallow: /private/\n" };

const polite = (extra: { timeoutMs?: number } = {}) =>
  createPoliteClient({ http: extra.timeoutMs ? testHttpClient({ timeoutMs: extra.timeoutMs }) : http, crawl: t.repos.crawl, logger, userAgent: AGENT });
const gaps = () => arrivals.slice(1).map((a, i) => a.at - arrivals[i]!.at);
const failure = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error);

beforeAll(async () => {
  site = await startTestServer();
  http = testHttpClient();
  const record = (path: string) => arrivals.push({ path, at: performance.now() });
  site.handle("/robots.txt", (_req, res) => {
    record("/robots.txt");
    res.writeHead(robotsTxt.status, { "content-type": "text/plain" }).end(robotsTxt.body);
  });
  site.handle("/page", (_req, res) => {
    record("/page");
    // A slow answer: the next request must wait for this one to end, then the delay.
    setTimeout(() => res.writeHead(200, { "content-type": "text/plain" }).end("ok"), 50);
  });
  site.handle("/private/page", (_req, res) => {
    record("/private/page");
    res.writeHead(200, { "content-type": "text/plain" }).end("secret");
  });
  site.handle("/to-private", (_req, res) => {
    record("/to-private");
    res.writeHead(302, { location: "/private/page" }).end();
  });
  site.handle("/to-page", (_req, res) => {
    record("/to-page");
    res.writeHead(301, { location: "/page" }).end();
  });
  site.handle("/busy", (_req, res) => {
    record("/busy");
    res.writeHead(429, { "retry-after": "30" }).end();
  });
});
beforeEach(() => {
  arrivals.length = 0;
  robotsTxt = { status: 200, body: "User-agent: *\nDisallow: /private/\n" };
});
afterAll(async () => {
  await http.close();
  await site.close();
});

describe("the politeness gate", () => {
  test("two clients sharing the database (two processes) never overlap on one origin, and keep the delay between them", async () => {
    const first = polite();
    const second = polite();
    const options = { crawlDelayMs: 150 };
    await Promise.all([1, 2, 3].flatMap(() => [first.fetch(`${site.url}/page`, options), second.fetch(`${site.url}/page`, options)]));
    const pages = arrivals.filter((a) => a.path === "/page");
    expect(pages).toHaveLength(6);
    // Each request starts after the previous one's 50 ms answer and the 150 ms delay.
    for (const gap of gaps()) expect(gap).toBeGreaterThanOrEqual(145);
  });

  test("robots.txt is a request to the site: the first request after it waits for its Crawl-delay", async () => {
    robotsTxt = { status: 200, body: "User-agent: *\nCrawl-delay: 0.4\n" };
    await polite().fetch(`${site.url}/page`, { crawlDelayMs: 20 });
    expect(arrivals.map((a) => a.path)).toEqual(["/robots.txt", "/page"]);
    expect(gaps()[0]).toBeGreaterThanOrEqual(395);
  });

  test("robots.txt's Crawl-delay spaces requests when it is longer than the caller's delay", async () => {
    robotsTxt = { status: 200, body: "User-agent: *\nCrawl-delay: 0.3\n" };
    const client = polite();
    await Promise.all([client.fetch(`${site.url}/page`, { crawlDelayMs: 10 }), client.fetch(`${site.url}/page`, { crawlDelayMs: 10 })]);
    expect(arrivals.map((a) => a.path)).toEqual(["/robots.txt", "/page", "/page"]);
    // The answer takes 50 ms, then 300 ms must pass.
    expect(gaps()[1]).toBeGreaterThanOrEqual(345);
  });

  test("a URL robots.txt disallows is not fetched, and the reason names it", async () => {
    const error = await failure(polite().fetch(`${site.url}/private/page`, { crawlDelayMs: 0 }));
    expect(isFetchError(error) && error.code).toBe("ROBOTS_DISALLOWED");
    expect((error as Error).message).toBe(`robots.txt disallows ${site.url}/private/page`);
    expect(arrivals.map((a) => a.path)).toEqual(["/robots.txt"]);
  });

  test("a redirect to a disallowed URL is not followed", async () => {
    const error = await failure(polite().fetch(`${site.url}/to-private`, { crawlDelayMs: 0 }));
    expect(isFetchError(error) && error.code).toBe("ROBOTS_DISALLOWED");
    expect(arrivals.map((a) => a.path)).toEqual(["/robots.txt", "/to-private"]);
  });

  test.each([503, 429])("a robots.txt answering %i leaves the site alone: nothing else is fetched", async (status) => {
    robotsTxt = { status, body: "" };
    const error = await failure(polite().fetch(`${site.url}/page`, { crawlDelayMs: 0 }));
    expect(isFetchError(error) && error.code).toBe("ROBOTS_UNAVAILABLE");
    expect((error as Error).message).toContain(`robots.txt answered HTTP ${status}`);
    expect(arrivals.map((a) => a.path)).toEqual(["/robots.txt"]);
  });

  test("a site that cannot be reached fails with its own reason, not robots.txt's", async () => {
    const nobody = `http://127.0.0.1:${await freePort()}`;
    const error = await failure(polite().fetch(`${nobody}/page`, { crawlDelayMs: 0 }));
    expect(isFetchError(error) && [error.code, error.url, error.retryable]).toEqual(["NETWORK_ERROR", `${nobody}/page`, true]);
  });

  test("robots.txt is read once a day per origin, whichever process asks, and when they ask at once", async () => {
    await Promise.all([polite().fetch(`${site.url}/page`, { crawlDelayMs: 0 }), polite().fetch(`${site.url}/page`, { crawlDelayMs: 0 })]);
    await polite().fetch(`${site.url}/page`, { crawlDelayMs: 0 });
    expect(arrivals.map((a) => a.path)).toEqual(["/robots.txt", "/page", "/page", "/page"]);
  });

  test("waiting for the site's turn, on a redirect's hop too, does not count against the client's time limit", async () => {
    const client = polite({ timeoutMs: 300 });
    const results = await Promise.all([client.fetch(`${site.url}/to-page`, { crawlDelayMs: 400 }), client.fetch(`${site.url}/to-page`, { crawlDelayMs: 400 })]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect(arrivals.map((a) => a.path).sort()).toEqual(["/page", "/page", "/robots.txt", "/to-page", "/to-page"]);
  });

  test("a 429 pauses the origin for everyone for its Retry-After", async () => {
    const response = await polite().fetch(`${site.url}/busy`, { crawlDelayMs: 0 });
    expect(response.status).toBe(429);
    const [row] = await t.db.select().from(crawlHosts).where(eq(crawlHosts.origin, site.url));
    expect(row!.pausedUntil!.getTime() - Date.now()).toBeGreaterThan(25_000);
  });

  test("an origin held by a runner that died is free again once its lease expires", async () => {
    const origin = "http://stale.example";
    expect(await t.repos.crawl.claimHost(origin, 60_000)).toEqual({ held: true });
    const blocked = await t.repos.crawl.claimHost(origin, 60_000);
    expect(blocked.held).toBe(false);
    // The runner died holding it; its lease runs out (moved into the past rather than waited for).
    await t.db.update(crawlHosts).set({ leaseUntil: new Date(Date.now() - 1_000) }).where(eq(crawlHosts.origin, origin));
    expect(await t.repos.crawl.claimHost(origin, 60_000)).toEqual({ held: true });
  });

  test("a 429 pauses for its Retry-After, or a minute without one; a 503 only when it says how long", () => {
    const now = new Date("2026-11-23T10:00:00Z");
    expect(pauseAfter({ status: 429, headers: { "retry-after": "30" } }, now)).toBe(30_000);
    expect(pauseAfter({ status: 429, headers: {} }, now)).toBe(60_000);
    expect(pauseAfter({ status: 503, headers: { "retry-after": "Mon, 23 Nov 2026 10:02:00 GMT" } }, now)).toBe(120_000);
    expect(pauseAfter({ status: 503, headers: {} }, now)).toBeNull();
    expect(pauseAfter({ status: 200, headers: { "retry-after": "30" } }, now)).toBeNull();
    expect(pauseAfter({ status: 429, headers: { "retry-after": "999999" } }, now)).toBe(3_600_000);
  });
});
