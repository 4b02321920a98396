import { and, desc, eq, gte, sql } from "drizzle-orm";
import type { Db } from "../client";
import { categories, rejectedStories, sources, stories } from "../schema";

export type StoryRow = typeof stories.$inferSelect;
export type NewStory = typeof stories.$inferInsert;
export type NewRejectedStory = typeof rejectedStories.$inferInsert;

/** A story with the names the public pages show beside it. */
export type StoryWithRelations = StoryRow & {
  categoryName: string | null;
  categorySlug: string | null;
  sourceName: string | null;
};

const withRelations = {
  story: stories,
  categoryName: categories.name,
  categorySlug: categories.slug,
  sourceName: sources.name,
};

export function storiesRepo(db: Db) {
  return {
    /** The latest published stories, newest first (served by stories_published_date_idx). */
    async listLatestPublished(limit: number): Promise<StoryWithRelations[]> {
      const rows = await db
        .select(withRelations)
        .from(stories)
        .leftJoin(categories, eq(categories.id, stories.categoryId))
        .leftJoin(sources, eq(sources.id, stories.sourceId))
        .where(eq(stories.status, "published"))
        .orderBy(desc(stories.publishDate), desc(stories.id))
        .limit(limit);
      return rows.map(({ story, ...names }) => ({ ...story, ...names }));
    },

    async countByStatus(): Promise<Record<StoryRow["status"], number>> {
      const rows = await db
        .select({ status: stories.status, n: sql<number>`count(*)::int` })
        .from(stories)
        .groupBy(stories.status);
      const counts = { published: 0, pending: 0, rejected: 0 };
      for (const row of rows) counts[row.status] = row.n;
      return counts;
    },

    async countCreatedSince(since: Date): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(stories).where(gte(stories.createdAt, since));
      return row?.n ?? 0;
    },

    /** Inserts stories whose URL hash is new; known URLs are skipped. Returns how many were added. */
    async insertMissing(rows: NewStory[]): Promise<number> {
      if (rows.length === 0) return 0;
      const inserted = await db
        .insert(stories)
        .values(rows)
        .onConflictDoNothing({ target: stories.urlHash })
        .returning({ id: stories.id });
      return inserted.length;
    },

    /** Records rejections whose normalised URL is new. Returns how many were added. */
    async insertMissingRejections(rows: NewRejectedStory[]): Promise<number> {
      if (rows.length === 0) return 0;
      const inserted = await db
        .insert(rejectedStories)
        .values(rows)
        .onConflictDoNothing({ target: rejectedStories.normalizedUrl })
        .returning({ id: rejectedStories.id });
      return inserted.length;
    },

    async findPublishedBySlug(slug: string): Promise<StoryRow | null> {
      const [row] = await db
        .select()
        .from(stories)
        .where(and(eq(stories.slug, slug), eq(stories.status, "published")))
        .limit(1);
      return row ?? null;
    },
  };
}
export type StoriesRepo = ReturnType<typeof storiesRepo>;
