import { gte, sql } from "drizzle-orm";
import type { Db } from "../client";
import { rejectedStories, stories } from "../schema";

export type StoryRow = typeof stories.$inferSelect;
export type NewStory = typeof stories.$inferInsert;
export type NewRejectedStory = typeof rejectedStories.$inferInsert;

/** A story with the names the public pages show beside it. */
export type StoryWithRelations = StoryRow & {
  categoryName: string | null;
  categorySlug: string | null;
  sourceName: string | null;
};

export function storiesRepo(db: Db) {
  return {
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
  };
}
export type StoriesRepo = ReturnType<typeof storiesRepo>;
