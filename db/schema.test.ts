import { eq, sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import {
  makeAuditEntry,
  makeCategory,
  makeFeedLog,
  makeJob,
  makeRejectedStory,
  makeScrapedCandidate,
  makeSession,
  makeSocialPost,
  makeSource,
  makeStory,
  makeUrlQueueItem,
  makeUser,
} from "./testing/factories";
import { testDatabaseForFile } from "./testing/test-database";
import { feedProcessingLog, scrapedCandidates, sessions, socialMediaPosts, sources, stories, urlQueue, users } from "./schema";

const t = testDatabaseForFile();

async function rows<T = Record<string, unknown>>(query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await t.db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** The SQLSTATE of the error a statement raises (drizzle wraps the driver's error). */
async function sqlState(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    const e = error as { code?: string; cause?: { code?: string } };
    return e.cause?.code ?? e.code;
  }
}

describe("the migrated schema", () => {
  test("has every table of the spec and of the product", async () => {
    const tables = await rows<{ table_name: string }>(
      sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`,
    );
    expect(tables.map((r) => r.table_name)).toEqual(
      expect.arrayContaining([
        "stories",
        "categories",
        "sources",
        "rejected_stories",
        "url_queue",
        "social_media_posts",
        "feed_processing_log",
        "scraped_candidates",
        "users",
        "sessions",
        "accounts",
        "verifications",
        "jobs",
        "audit_log",
      ]),
    );
  });

  test("gives stories every field the product defines for them", async () => {
    const columns = await rows<{ column_name: string }>(
      sql`SELECT column_name FROM information_schema.columns WHERE table_name = 'stories'`,
    );
    expect(columns.map((c) => c.column_name)).toEqual(
      expect.arrayContaining(
        "id title summary content image_url original_url source_url normalized_url url_hash slug publish_date is_featured status category_id source_id created_at updated_at image_enhanced image_processing_status".split(
          " ",
        ),
      ),
    );
  });

  test("keeps per-source fetch state", async () => {
    const source = await makeSource(t.db);
    expect(source).toMatchObject({
      etag: null,
      lastModified: null,
      lastFetchedAt: null,
      nextCheckAt: null,
      consecutiveErrors: 0,
      lastError: null,
      status: "active",
      includeKeywords: [],
      excludeKeywords: [],
      scrapingConfig: {},
    });
  });

  test("enables pg_trgm", async () => {
    const [row] = await rows<{ similarity: number }>(sql`SELECT similarity('weird', 'wierd') AS similarity`);
    expect(row?.similarity).toBeGreaterThan(0);
  });
});

describe("constraints", () => {
  test("two stories cannot share a url_hash", async () => {
    await makeStory(t.db, { originalUrl: "https://example.com/goat" });
    expect(await sqlState(makeStory(t.db, { originalUrl: "https://www.example.com/goat/?utm_source=x" }))).toBe("23505");
  });

  test("two rejections cannot share a normalized_url", async () => {
    await makeRejectedStory(t.db, { originalUrl: "https://example.com/no" });
    expect(await sqlState(makeRejectedStory(t.db, { originalUrl: "https://example.com/no#again" }))).toBe("23505");
  });

  test("two categories cannot share a slug", async () => {
    await makeCategory(t.db, { slug: "animals" });
    expect(await sqlState(makeCategory(t.db, { slug: "animals" }))).toBe("23505");
  });

  test("a story's status is one of published, pending, rejected", async () => {
    expect(await sqlState(makeStory(t.db, { status: "archived" as "pending" }))).toBe("22P02");
  });

  test("a published story has a publish date", async () => {
    expect(await sqlState(makeStory(t.db, { status: "published", publishDate: null }))).toBe("23514");
  });

  test("an RSS source has a feed URL", async () => {
    expect(await sqlState(makeSource(t.db, { sourceType: "rss", rssFeedUrl: null }))).toBe("23514");
  });
});

describe("deletes", () => {
  test("deleting a category leaves its stories uncategorised", async () => {
    const category = await makeCategory(t.db);
    const story = await makeStory(t.db, { categoryId: category.id });
    await t.db.execute(sql`DELETE FROM categories WHERE id = ${category.id}`);
    const [after] = await t.db.select().from(stories).where(eq(stories.id, story.id));
    expect(after?.categoryId).toBeNull();
  });

  test("a source with stories cannot be deleted implicitly", async () => {
    const source = await makeSource(t.db);
    await makeStory(t.db, { sourceId: source.id });
    // PostgreSQL 18 reports restrict_violation (23001), 15 a foreign_key_violation (23503).
    expect(["23001", "23503"]).toContain(await sqlState(t.db.delete(sources).where(eq(sources.id, source.id))));
  });

  test("deleting a source removes its logs, candidates and queued URLs", async () => {
    const source = await makeSource(t.db);
    await makeFeedLog(t.db, { sourceId: source.id });
    await makeScrapedCandidate(t.db, { sourceId: source.id });
    await makeUrlQueueItem(t.db, { sourceId: source.id });
    await t.db.delete(sources).where(eq(sources.id, source.id));
    expect(await t.db.select().from(feedProcessingLog)).toHaveLength(0);
    expect(await t.db.select().from(scrapedCandidates)).toHaveLength(0);
    expect(await t.db.select().from(urlQueue)).toHaveLength(0);
  });

  test("deleting a story removes its social posts", async () => {
    const post = await makeSocialPost(t.db);
    await t.db.delete(stories).where(eq(stories.id, post.storyId));
    expect(await t.db.select().from(socialMediaPosts)).toHaveLength(0);
  });

  test("deleting a user removes their sessions but keeps the audit trail", async () => {
    const user = await makeUser(t.db);
    await makeSession(t.db, { userId: user.id });
    const entry = await makeAuditEntry(t.db, { actorUserId: user.id });
    await t.db.delete(users).where(eq(users.id, user.id));
    expect(await t.db.select().from(sessions)).toHaveLength(0);
    const [kept] = await rows<{ id: number; actor_user_id: string | null }>(
      sql`SELECT id::int AS id, actor_user_id FROM audit_log WHERE id = ${entry.id}`,
    );
    expect(kept).toEqual({ id: entry.id, actor_user_id: null });
  });

  test("e-mail addresses are unique whatever their case", async () => {
    await makeUser(t.db, { email: "Editor@Oddwire.test" });
    expect(await sqlState(makeUser(t.db, { email: "editor@oddwire.test" }))).toBe("23505");
  });
});

describe("indexes serve the public site's reads", () => {
  async function plan(query: ReturnType<typeof sql>): Promise<string> {
    // With sequential scans priced out, the plan shows whether a usable index exists.
    await t.db.execute(sql`SET enable_seqscan = off`);
    try {
      const result = await rows<{ "QUERY PLAN": string }>(sql`EXPLAIN ${query}`);
      return result.map((r) => r["QUERY PLAN"]).join("\n");
    } finally {
      await t.db.execute(sql`SET enable_seqscan = on`);
    }
  }

  async function fillPublishedStories(count: number) {
    await t.db.execute(sql`
      INSERT INTO stories (title, summary, content, normalized_url, url_hash, slug, status, publish_date)
      SELECT 'Title ' || g, 'Summary ' || g, 'Content ' || g, 'https://odd.example/' || g, md5(g::text), 'story-' || g, 'published', now()
      FROM generate_series(1, ${count}) g`);
    await t.db.execute(sql`ANALYZE stories`);
  }

  test("latest published stories use the publish-date index", async () => {
    await makeStory(t.db);
    expect(await plan(sql`SELECT id FROM stories WHERE status = 'published' ORDER BY publish_date DESC, id DESC LIMIT 20`)).toContain(
      "stories_published_date_idx",
    );
  });

  test("a category's published stories use the category index", async () => {
    expect(
      await plan(
        sql`SELECT id FROM stories WHERE status = 'published' AND category_id = 1 ORDER BY publish_date DESC, id DESC LIMIT 20`,
      ),
    ).toContain("stories_published_category_idx");
  });

  // Public search reads published stories only, through the columns migration 0009 generates: the
  // indexes cover only those (ingestion inserts pending ones in bulk). On a small table the indexes on
  // status look as cheap, so the planner gets a realistic number of rows.
  test("public search reads its folded substrings by trigram and its stems by full text", async () => {
    await fillPublishedStories(20_000);
    const substring = await plan(sql`SELECT id FROM stories WHERE status = 'published' AND (search_title LIKE '%goat%' OR search_body LIKE '%goat%')`);
    expect(substring).toContain("stories_search_title_trgm_idx");
    expect(substring).toContain("stories_search_body_trgm_idx");
    const stems = await plan(sql`SELECT id FROM stories WHERE status = 'published' AND search_vector @@ websearch_to_tsquery('english', 'goats')`);
    expect(stems).toContain("stories_search_vector_idx");
    const titleStems = await plan(sql`SELECT id FROM stories WHERE status = 'published' AND search_title_vector @@ websearch_to_tsquery('english', 'goats')`);
    expect(titleStems).toContain("stories_search_title_vector_idx");
  });

  test("the search columns fold case and accents, leave out markup, and follow every change of the story", async () => {
    const story = await makeStory(t.db, { title: "Reindeer in a TROMSØ shop", summary: "Café <b>visit</b>", content: '<p>It ate <a href="x">lettuce</a> &amp; left.</p>' });
    const read = async () =>
      (await rows<{ search_title: string; search_body: string; stems: string }>(sql`SELECT search_title, search_body, search_vector::text AS stems FROM stories WHERE id = ${story.id}`))[0]!;
    const first = await read();
    expect(first.search_title).toBe("reindeer in a tromso shop");
    expect(first.search_body.replace(/\s+/g, " ").trim()).toBe("cafe visit it ate lettuce & left.");
    expect((await read()).stems).toContain("'reindeer'");
    expect((await read()).stems).not.toContain("href");
    await t.db.update(stories).set({ title: "Reindeers in Zürich" }).where(eq(stories.id, story.id));
    expect((await read()).search_title).toBe("reindeers in zurich");
  });

  test("the admin search on title and summary, over every status, uses their trigram indexes", async () => {
    const shown = await plan(sql`SELECT id FROM stories WHERE title ILIKE '%goat%' OR summary ILIKE '%goat%'`);
    expect(shown).toContain("stories_title_trgm_idx");
    expect(shown).toContain("stories_summary_trgm_idx");
  });
});

describe("indexes serve the URL Que list", () => {
  // The list as db/repos/crawl.repo.ts asks for it: newest lastmod first, undated last, 1000 rows.
  const order = sql`ORDER BY lastmod DESC NULLS LAST, id DESC NULLS LAST LIMIT 1000`;
  // With scans that need a sort priced out, a plan that still sorts has no index in the list's order.
  const SETTINGS = ["enable_seqscan", "enable_bitmapscan", "enable_sort"];
  async function plan(where: ReturnType<typeof sql>): Promise<string> {
    for (const name of SETTINGS) await t.db.execute(sql`SET ${sql.raw(name)} = off`);
    try {
      const result = await rows<{ "QUERY PLAN": string }>(sql`EXPLAIN SELECT id FROM url_queue ${where} ${order}`);
      return result.map((r) => r["QUERY PLAN"]).join("\n");
    } finally {
      for (const name of SETTINGS) await t.db.execute(sql`SET ${sql.raw(name)} = on`);
    }
  }

  test.each([
    ["every status", sql``, "url_queue_lastmod_idx"],
    ["one status", sql`WHERE status = 'queued'`, "url_queue_status_idx"],
    ["one source and status", sql`WHERE source_id = 1 AND status = 'queued'`, "url_queue_source_idx"],
  ])("%s reads an index in the list's order (%s)", async (_name, where, index) => {
    const shown = await plan(where);
    expect(shown).toContain(index);
    expect(shown).not.toMatch(/Sort|Bitmap/);
  });

  test("a URL search uses its trigram index", async () => {
    await t.db.execute(sql`SET enable_seqscan = off`);
    try {
      const shown = await rows<{ "QUERY PLAN": string }>(sql`EXPLAIN SELECT id FROM url_queue WHERE url ILIKE '%goat%'`);
      expect(shown.map((r) => r["QUERY PLAN"]).join("\n")).toContain("url_queue_url_trgm_idx");
    } finally {
      await t.db.execute(sql`SET enable_seqscan = on`);
    }
  });
});

describe("factories", () => {
  test("make a row of every entity", async () => {
    const made = [
      await makeCategory(t.db),
      await makeSource(t.db),
      await makeStory(t.db, { status: "pending" }),
      await makeRejectedStory(t.db),
      await makeUrlQueueItem(t.db),
      await makeSocialPost(t.db),
      await makeFeedLog(t.db),
      await makeScrapedCandidate(t.db),
      await makeUser(t.db),
      await makeSession(t.db),
      await makeJob(t.db),
      await makeAuditEntry(t.db),
    ];
    expect(made.every((row) => row && "id" in row)).toBe(true);
    const [pending] = await t.db.select().from(stories).where(eq(stories.status, "pending"));
    expect(pending?.publishDate).toBeNull();
  });
});
