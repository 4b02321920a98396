import { sql } from "drizzle-orm";
import { expect, test } from "vitest";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { BENCH_CATEGORIES, seedStories } from "./seed-stories";

const t = testDatabaseForFile();

type Rows<T> = { rows: T[] };
const rows = async <T>(query: ReturnType<typeof sql>) => ((await t.db.execute(query)) as unknown as Rows<T>).rows;

test("seeding spreads published stories over every category, with the search words, counts and indexes the database keeps", async () => {
  const indexesBefore = await rows<{ indexdef: string }>(sql`SELECT indexdef FROM pg_indexes WHERE tablename = 'stories' ORDER BY indexname`);

  const seed = await seedStories(t.database, { published: 240, batchSize: 50 });

  expect(seed).toMatchObject({ published: 240, pending: 2, commonMatches: 80, rareMatches: 10 });
  expect(seed.newestSlug).toMatch(/-1$/);
  const perCategory = await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM stories WHERE status = 'published' GROUP BY category_id`);
  expect(perCategory).toHaveLength(BENCH_CATEGORIES.length);
  expect(perCategory.map((c) => c.n)).toEqual(perCategory.map(() => 240 / BENCH_CATEGORIES.length));
  const kept = await rows<{ n: number }>(sql`SELECT sum(published)::int AS n FROM category_story_counts`);
  expect(kept[0]?.n).toBe(240);
  // The generated search columns find what search looks for.
  const found = await rows<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM stories WHERE status = 'published' AND search_vector @@ plainto_tsquery('english', 'zeppelin')`,
  );
  expect(found[0]?.n).toBe(10);
  // Every index dropped for the load is there again, as the migrations define it.
  expect(await rows<{ indexdef: string }>(sql`SELECT indexdef FROM pg_indexes WHERE tablename = 'stories' ORDER BY indexname`)).toEqual(indexesBefore);
});
