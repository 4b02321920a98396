import { describe, expect, test } from "vitest";
import type { Db } from "~/db/client";
import { runCli, useCliEnvironment } from "~/test/cli-harness";

const cliEnvironment = useCliEnvironment("oddwire-cli-triage");

/** Stories and rejections through the same database the commands open. */
async function withDatabase(work: (db: Db) => Promise<void>) {
  const { openEmbeddedDatabase } = await import("../database");
  const database = await openEmbeddedDatabase(cliEnvironment.dataDir());
  try {
    await work(database.db);
  } finally {
    await database.close();
  }
}

describe("source:stats", () => {
  test("prints each source's yield over the window, best first, a source with no items as zeros", async () => {
    expect((await runCli(["source:add", "--name", "Busy Wire", "--type", "manual"])).code).toBe(0);
    expect((await runCli(["source:add", "--name", "Empty Feed", "--type", "manual"])).code).toBe(0);
    const { makeRejectedStory, makeStory } = await import("~/db/testing/factories");
    const { sources } = await import("~/db/schema");
    const day = 86_400_000;
    await withDatabase(async (db) => {
      const [busy] = await db.select().from(sources);
      const sourceId = busy!.id;
      await makeStory(db, { sourceId, status: "published", createdAt: new Date(Date.now() - 2 * day), publishDate: new Date(Date.now() - day) });
      await makeStory(db, { sourceId, status: "pending", createdAt: new Date(Date.now() - 3 * day) });
      await makeStory(db, { sourceId, status: "pending", createdAt: new Date(Date.now() - 20 * day) });
      await makeRejectedStory(db, { sourceId, ingestedAt: new Date(Date.now() - day), rejectedAt: new Date() });
    });

    const week = await runCli(["source:stats", "--days", "7"]);
    expect(week.code).toBe(0);
    const report = week.json() as { days: number; since: string; sources: Record<string, unknown>[] };
    expect(report.days).toBe(7);
    expect(report.sources).toEqual([
      { sourceId: expect.any(Number), name: "Busy Wire", status: "active", broughtIn: 3, published: 1, rejected: 1, pending: 1, publishRate: 1 / 3, lastPublishedAt: expect.any(String) },
      { sourceId: expect.any(Number), name: "Empty Feed", status: "active", broughtIn: 0, published: 0, rejected: 0, pending: 0, publishRate: null, lastPublishedAt: null },
    ]);
    // Without --days: the last 30 days, where the older pending story counts too.
    const month = await runCli(["source:stats"]);
    expect(month.json()).toMatchObject({ days: 30, sources: [{ name: "Busy Wire", broughtIn: 4, pending: 2, publishRate: 0.25 }, { name: "Empty Feed", broughtIn: 0 }] });
  });

  test("is listed in the help", async () => {
    const { out } = await runCli(["--help"]);
    expect(out.join("\n")).toMatch(/^\s+source:stats \[--days N\]\s+each source's yield/m);
  });

  test.each([["0"], ["-3"], ["1.5"], ["ten"], ["3651"]])("--days %s is a usage error", async (days) => {
    const { code, error } = await runCli(["source:stats", "--days", days]);
    expect(code).toBe(2);
    expect(error().code).toBe("USAGE");
  });
});

describe("review and triage", () => {
  test("review publishes pending stories into a category and rejects others with the reason; triage lists what is left", async () => {
    const { makeCategory, makeStory } = await import("~/db/testing/factories");
    const { rejectedStories, stories } = await import("~/db/schema");
    const ids: Record<string, number> = {};
    expect((await runCli(["migrate"])).code).toBe(0);
    await withDatabase(async (db) => {
      await makeCategory(db, { name: "Animals", slug: "animals" });
      for (const name of ["goat", "llama", "council", "weather"]) ids[name] = (await makeStory(db, { status: "pending", title: `A ${name} story` })).id;
    });

    const published = await runCli(["review", "--publish", `${ids.goat},${ids.llama}`, "--category", "animals"]);
    expect(published.code).toBe(0);
    expect(published.json()).toEqual({ published: 2, skipped: [] });
    const rejected = await runCli(["review", "--reject", `${ids.council},${ids.goat}`, "--reason", "Not weird: a budget vote"]);
    expect(rejected.json()).toEqual({ rejected: 1, skipped: [{ storyId: ids.goat, reason: "Only a pending story can be rejected" }] });
    await withDatabase(async (db) => {
      const rows = await db.select().from(stories);
      expect(rows.filter((r) => r.status === "published").map((r) => r.title).sort()).toEqual(["A goat story", "A llama story"]);
      const [kept] = await db.select().from(rejectedStories);
      expect(kept).toMatchObject({ title: "A council story", rejectionDetails: { reason: "Not weird: a budget vote" } });
    });

    // No ranking yet (two decisions): newest first, no scores.
    const listing = await runCli(["triage", "--limit", "5"]);
    expect(listing.json()).toEqual({ stories: [{ id: ids.weather, title: "A weather story", score: null, suggestedCategory: null, sameStory: null }], model: null });
  });

  test.each([
    [["review"]],
    [["review", "--publish", "1"]],
    [["review", "--publish", "1", "--reject", "2"]],
    [["review", "--reject", "one,two"]],
    [["review", "--publish", "1", "--category", "no-such-category"]],
    [["triage", "--limit", "0"]],
    [["triage", "--source", "x"]],
    [["triage", "--source", "999999"]],
  ])("%j is a usage error", async (args) => {
    const { code, error } = await runCli(args);
    expect(code).toBe(2);
    expect(error().code).toBe("USAGE");
  });
});
