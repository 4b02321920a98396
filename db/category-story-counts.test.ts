import { eq, sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { categories, categoryStoryCounts, stories } from "./schema";
import { makeCategory, makeStory } from "./testing/factories";
import { useTestDatabase } from "./testing/test-database";

const t = useTestDatabase();

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
