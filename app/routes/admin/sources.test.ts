import { describe, expect, test } from "vitest";
import { makeSource, makeStory, makeUser } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { routeArgs, routeContext } from "~/test/route-context";
import { loader } from "./sources";

// The Sources page's loader, as the router runs it for a signed-in admin, on a real database.

const t = testDatabaseForFile();
const SITE = "https://oddwire.test";
const DAY = 86_400_000;

async function load(search: string) {
  const admin = await makeUser(t.db, { isAdmin: true });
  const log = () => {};
  const context = routeContext({
    repos: t.repos,
    getSessionUser: async () => ({ id: admin.id, email: admin.email, name: admin.name, emailVerified: true }),
    config: { siteUrl: SITE },
    logger: { error: log, warn: log, info: log, debug: log },
  });
  return loader(routeArgs(new Request(`${SITE}/admin/sources${search}`), context, {}));
}

describe("the Sources page's yield", () => {
  test("gives each source its figures for the window asked, and sorts by yield when asked", async () => {
    const ago = (days: number) => new Date(Date.now() - days * DAY);
    const noisy = await makeSource(t.db, { name: "Noisy", createdAt: ago(3) });
    const good = await makeSource(t.db, { name: "Good", createdAt: ago(2) });
    const silent = await makeSource(t.db, { name: "Silent", createdAt: ago(1) });
    for (let i = 0; i < 4; i++) await makeStory(t.db, { sourceId: noisy.id, status: "pending", createdAt: ago(1) });
    await makeStory(t.db, { sourceId: good.id, status: "published", createdAt: ago(1) });
    // Brought in 20 days ago: in the 30-day window, not the 7-day one.
    await makeStory(t.db, { sourceId: good.id, status: "pending", createdAt: ago(20) });

    const newest = await load("");
    expect(newest.query).toMatchObject({ window: "30", sort: "newest" });
    expect(newest.sources.map((s) => s.name)).toEqual(["Silent", "Good", "Noisy"]);
    expect(newest.yields.find((y) => y.sourceId === good.id)).toMatchObject({ broughtIn: 2, published: 1, pending: 1, publishRate: 0.5 });

    const week = await load("?window=7&sort=best-yield");
    expect(week.yields.find((y) => y.sourceId === good.id)).toMatchObject({ broughtIn: 1, published: 1, publishRate: 1 });
    expect(week.sources.map((s) => s.name)).toEqual(["Good", "Noisy", "Silent"]);

    const worst = await load("?sort=worst-yield&window=90");
    expect(worst.sources.map((s) => s.name)).toEqual(["Noisy", "Good", "Silent"]);
    expect(worst.yields.find((y) => y.sourceId === silent.id)).toMatchObject({ broughtIn: 0, publishRate: null, lastPublishedAt: null });
  });
});
