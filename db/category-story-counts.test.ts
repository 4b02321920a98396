import { eq, sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { categories, categoryStoryCounts, stories } from "./schema";
import { makeCategory, makeStory } from "./testing/factories";
import { testDatabaseForFile } from "./testing/test-database";

const t = testDatabaseForFile();
// Two transactions at once need two connections: a PostgreSQL server (the embedded database has one).

/** The kept counts, and the counts made the slow way: they must agree at every step. */
async function kept() {
  const rows = await t.db.select().from(categoryStoryCounts);
  return Object.fromEntries(rows.filter((r) => r.published !== 0).map((r) => [r.categoryId, r.published]));
}
async function counted() {
  const rows = (await t.db.execute(
    sql`SELECT category_id, count(*)::int AS n FROM stories WHERE status = 'published' AND category_id IS NOT NULL GROUP BY category_id`,
  )) as unknown as { rows: { category_id: number; n: number }[] };
  return Object.fromEntries(rows.rows.map((r) => [r.category_id, Number(r.n)]));
}

describe("each category's published count, kept by the database", () => {
  test("follows inserts one by one and in bulk, publishing, unpublishing, moves, deletes, a deleted category and a truncate", async () => {
    const a = await makeCategory(t.db, { name: "Animals", slug: "animals" });
    const b = await makeCategory(t.db, { name: "Space", slug: "space" });
    const first = await makeStory(t.db, { categoryId: a.id, status: "published" });
    await makeStory(t.db, { categoryId: a.id, status: "pending" });
    expect(await kept()).toEqual({ [a.id]: 1 });

    // One statement of many rows, some published, some not, in both categories.
    await t.db.insert(stories).values(
      Array.from({ length: 30 }, (_, i) => ({
        title: `Bulk ${i}`,
        slug: `bulk-${i}`,
        urlHash: `bulk-hash-${i}`,
        normalizedUrl: `https://bulk.example/${i}`,
        categoryId: i % 2 ? a.id : b.id,
        status: i % 3 ? ("published" as const) : ("pending" as const),
        publishDate: new Date(),
      })),
    );
    expect(await kept()).toEqual(await counted());

    const pending = await makeStory(t.db, { categoryId: b.id, status: "pending" });
    await t.db.update(stories).set({ status: "published", publishDate: new Date() }).where(eq(stories.id, pending.id));
    expect(await kept()).toEqual(await counted());
    await t.db.update(stories).set({ categoryId: b.id }).where(eq(stories.id, first.id));
    await t.db.update(stories).set({ title: "Renamed, nothing else" }).where(eq(stories.id, first.id));
    expect(await kept()).toEqual(await counted());
    await t.db.update(stories).set({ status: "pending" }).where(eq(stories.categoryId, a.id));
    expect(await kept()).toEqual(await counted());
    await t.db.delete(stories).where(eq(stories.categoryId, b.id));
    expect(await kept()).toEqual({});

    const c = await makeCategory(t.db, { name: "Weather", slug: "weather" });
    await makeStory(t.db, { categoryId: c.id, status: "published" });
    await makeStory(t.db, { categoryId: a.id, status: "published" });
    await t.db.delete(categories).where(eq(categories.id, c.id));
    expect(await kept()).toEqual({ [a.id]: 1 });
    expect(await kept()).toEqual(await counted());

    await t.database.exec("TRUNCATE stories CASCADE");
    expect(await t.db.select().from(categoryStoryCounts)).toEqual([]);
  });
});

describe("counts under concurrent moves", () => {
  test("two editors moving published stories opposite ways at once both succeed, and the counts stay right", async () => {
    const database = t.database;
    const low = await makeCategory(t.db, { name: "Animals", slug: "animals" });
    const high = await makeCategory(t.db, { name: "Space", slug: "space" });
    expect(low.id).toBeLessThan(high.id);
    const inLow = await makeStory(t.db, { categoryId: low.id, status: "published" });
    const inHigh = await makeStory(t.db, { categoryId: high.id, status: "published" });
    const first = await database.pool.connect();
    const second = await database.pool.connect();
    try {
      await first.query("BEGIN");
      await second.query("BEGIN");
      // The first editor's move is under way and holds the lower category's count...
      await first.query("SELECT 1 FROM category_story_counts WHERE category_id = $1 FOR UPDATE", [low.id]);
      // ...when the second editor moves a story from the higher category to the lower one: it must wait.
      const secondPid = (await second.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]?.pid;
      const secondMove = second.query("UPDATE stories SET category_id = $1 WHERE id = $2", [low.id, inHigh.id]).then(
        () => null,
        (error: unknown) => error,
      );
      await expect
        .poll(async () => (await database.pool.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND wait_event_type = 'Lock'", [secondPid])).rowCount, {
          message: "the second move waits for the first",
          timeout: 10_000,
          interval: 20,
        })
        .toBe(1);
      // The first editor's move to the higher category: had the second taken the higher count while it
      // waited, PostgreSQL would abort one of the two here (40P01).
      await first.query("UPDATE stories SET category_id = $1 WHERE id = $2", [high.id, inLow.id]);
      await first.query("COMMIT");
      expect(await secondMove).toBeNull();
      await second.query("COMMIT");
    } finally {
      // A failed step leaves its transaction open: end both before the connections go back.
      await first.query("ROLLBACK").catch(() => {});
      await second.query("ROLLBACK").catch(() => {});
      first.release();
      second.release();
    }
    expect(await kept()).toEqual({ [low.id]: 1, [high.id]: 1 });
    expect(await kept()).toEqual(await counted());
  });
});
