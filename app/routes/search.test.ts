import type { AppLoadContext } from "react-router";
import { describe, expect, test } from "vitest";
import { makeStory } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { createRateLimiter } from "~/lib/rate-limit";
import { refusalOf, routeArgs, routeContext } from "~/test/route-context";
import { loader } from "./search";

const t = testDatabaseForFile();

function contextFor(clientAddress: string, search = createRateLimiter({ burst: 3, perMinute: 1, now: () => 0 })) {
  return routeContext({
    repos: t.repos,
    clientAddress,
    rateLimits: { search, suggestions: createRateLimiter({ burst: 3, perMinute: 1 }) },
    logger: { error: () => {}, warn: () => {} },
  });
}

const searchFor = (q: string, context: AppLoadContext) => loader(routeArgs(new Request(`http://localhost/search?q=${encodeURIComponent(q)}`), context, {}));

describe("the search page's loader", () => {
  test("answers a client that searches past its allowance with 429, how long to wait, and leaves other clients alone", async () => {
    await makeStory(t.db, { title: "Goat elected mayor" });
    const limiter = createRateLimiter({ burst: 3, perMinute: 1, now: () => 0 });
    const busy = contextFor("203.0.113.7", limiter);
    for (const q of ["goat", "mayor", "elected"]) expect((await searchFor(q, busy)).results.total).toBe(1);

    const refused = await refusalOf(searchFor("goat", busy));
    expect(refused?.status).toBe(429);
    expect(refused?.headers.get("Retry-After")).toBe("60");
    expect(refused?.body).toEqual({ message: "Too many searches from your address. Please wait 60 seconds and try again." });

    expect((await searchFor("goat", contextFor("203.0.113.8", limiter))).results.total).toBe(1);
  });

  test("an empty search costs nothing and is never refused", async () => {
    const context = contextFor("203.0.113.9", createRateLimiter({ burst: 1, perMinute: 1, now: () => 0 }));
    for (let i = 0; i < 5; i++) expect((await searchFor("   ", context)).query).toBe("");
  });

  test("a 14 KB query is searched as its first 200 characters", async () => {
    const result = await searchFor("q".repeat(14_000), contextFor("203.0.113.10"));
    expect(result.query).toHaveLength(200);
  });
});
