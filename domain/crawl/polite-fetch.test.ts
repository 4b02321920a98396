import { eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { crawlHosts } from "~/db/schema";
import { useTestDatabase } from "~/db/testing/test-database";
import { testHttpClient } from "~/integrations/http/testing";
import type { HttpClient } from "~/integrations/http/types";
import { startTestServer, type TestServer } from "~/test/http-test-server";
import { createPoliteFetcher, pauseAfter } from "./polite-fetch";

const t = useTestDatabase();
const logger = pino({ level: "silent" });
let site: TestServer;
let http: HttpClient;
const arrivals: number[] = [];

beforeAll(async () => {
  site = await startTestServer();
  http = testHttpClient();
  site.handle("/page", (_req, res) => {
    arrivals.push(performance.now());
    // A slow answer: the next request must wait for this one to end, then the delay.
    setTimeout(() => res.writeHead(200, { "content-type": "text/plain" }).end("ok"), 50);
  });
});
afterAll(async () => {
  await http.close();
  await site.close();
});

describe("the per-origin politeness gate", () => {
  test("two fetchers sharing the database (two processes) never overlap on one origin, and keep the delay between them", async () => {
    arrivals.length = 0;
    const first = createPoliteFetcher({ crawl: t.repos.crawl, http, logger });
    const second = createPoliteFetcher({ crawl: t.repos.crawl, http, logger });
    const options = { userAgent: "Oddwire/test", delayMs: 150 };
    await Promise.all([1, 2, 3].flatMap(() => [first.fetch(`${site.url}/page`, options), second.fetch(`${site.url}/page`, options)]));
    expect(arrivals).toHaveLength(6);
    // Each request starts after the previous one's 50 ms answer and the 150 ms delay.
    for (let i = 1; i < arrivals.length; i++) expect(arrivals[i]! - arrivals[i - 1]!).toBeGreaterThanOrEqual(195);
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
