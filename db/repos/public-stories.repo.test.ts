import { sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { makeCategory, makeStory } from "../testing/factories";
import { testDatabaseForFile } from "../testing/test-database";

const t = testDatabaseForFile();

describe("a category page read from a position", () => {
  // The reads of byCategory, as it sends them: just older than a position (the Older link), and just
  // newer, walked oldest first (the Newer link).
  const reads = {
    after: sql`SELECT id FROM stories WHERE status = 'published' AND category_id = 1
      AND (publish_date, id) < ('2024-05-01T12:00:00.123456Z'::timestamptz, 42::int) ORDER BY publish_date DESC, id DESC LIMIT 24`,
    before: sql`SELECT id FROM stories WHERE status = 'published' AND category_id = 1
      AND (publish_date, id) > ('2024-05-01T12:00:00.123456Z'::timestamptz, 42::int) ORDER BY publish_date ASC, id ASC LIMIT 24`,
  };

  // With scans that read rows outside the index's order priced out, a plan that still sorts or
  // filters had no index to start the page at the position.
  async function plan(query: ReturnType<typeof sql>): Promise<string> {
    const settings = ["enable_seqscan", "enable_bitmapscan", "enable_sort"];
    for (const name of settings) await t.db.execute(sql`SET ${sql.raw(name)} = off`);
    try {
      const result = (await t.db.execute(sql`EXPLAIN ${query}`)) as unknown as { rows: { "QUERY PLAN": string }[] };
      return result.rows.map((r) => r["QUERY PLAN"]).join("\n");
    } finally {
      for (const name of settings) await t.db.execute(sql`SET ${sql.raw(name)} = on`);
    }
  }

  test.each(Object.entries(reads))("starts at the position in the category index (%s)", async (_name, query) => {
    const shown = await plan(query);
    expect(shown).toContain("stories_published_category_idx");
    expect(shown).toMatch(/Index Cond: .*ROW\(publish_date, id\) [<>] ROW\(/);
    expect(shown).not.toMatch(/Sort|Filter/);
  });

  test("keeps publish times to the microsecond, before and after 1970", async () => {
    const category = await makeCategory(t.db);
    const made = [];
    for (const at of ["2024-05-01T12:00:00.123457Z", "2024-05-01T12:00:00.123456Z", "2024-05-01T12:00:00.123455Z", "1969-12-31T23:59:59.999999Z"]) {
      const story = await makeStory(t.db, { categoryId: category.id });
      await t.db.execute(sql`UPDATE stories SET publish_date = ${at}::timestamptz WHERE id = ${story.id}`);
      made.push(story.id);
    }
    const all = await t.repos.publicStories.byCategory(category.id, { limit: 10, offset: 0 });
    expect(all.stories.map((s) => s.id)).toEqual(made);
    expect(all.last?.publishedMicros).toBe(-1);
    const middle = (await t.repos.publicStories.byCategory(category.id, { limit: 2, offset: 1 })).first!;
    const older = await t.repos.publicStories.byCategory(category.id, { limit: 10, after: middle });
    const newer = await t.repos.publicStories.byCategory(category.id, { limit: 10, before: middle });
    expect(older.stories.map((s) => s.id)).toEqual(made.slice(2));
    expect(newer.stories.map((s) => s.id)).toEqual(made.slice(0, 1));
  });
});
