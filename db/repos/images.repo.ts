import { desc, eq, inArray, or, sql } from "drizzle-orm";
import type { Db } from "../client";
import { stories } from "../schema";

/** A story as image enhancement sees it. */
export type ImageStory = {
  id: number;
  title: string;
  imageUrl: string | null;
  pageUrl: string | null;
  imageEnhanced: boolean;
  imageProcessingStatus: (typeof stories.$inferSelect)["imageProcessingStatus"];
  imageCheckedAt: Date | null;
};

const imageStoryColumns = {
  id: stories.id,
  title: stories.title,
  imageUrl: stories.imageUrl,
  pageUrl: sql<string | null>`coalesce(${stories.originalUrl}, ${stories.sourceUrl})`,
  imageEnhanced: stories.imageEnhanced,
  imageProcessingStatus: stories.imageProcessingStatus,
  imageCheckedAt: stories.imageCheckedAt,
};

// The spec's "needs work": never enhanced, or failed last time (stories_image_work_idx serves it).
const needsWork = or(eq(stories.imageEnhanced, false), eq(stories.imageProcessingStatus, "failed"));

/** Data access of image enhancement: what needs work, and each story's outcome. */
export function imagesRepo(db: Db) {
  return {
    /** The newest stories with their image URL (the dashboard's image analysis). */
    async latestImages(limit: number): Promise<{ id: number; title: string; imageUrl: string | null; createdAt: Date }[]> {
      return db
        .select({ id: stories.id, title: stories.title, imageUrl: stories.imageUrl, createdAt: stories.createdAt })
        .from(stories)
        .orderBy(desc(stories.createdAt), desc(stories.id))
        .limit(limit);
    },

    async countNeedingWork(): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(stories).where(needsWork);
      return Number(row?.n ?? 0);
    },

    /** Ids of stories that need work, newest first. */
    async idsNeedingWork(limit: number): Promise<number[]> {
      const rows = await db.select({ id: stories.id }).from(stories).where(needsWork).orderBy(desc(stories.id)).limit(limit);
      return rows.map((r) => r.id);
    },

    async findStories(ids: number[]): Promise<ImageStory[]> {
      if (ids.length === 0) return [];
      return db.select(imageStoryColumns).from(stories).where(inArray(stories.id, ids));
    },

    /** Marks a story being worked on; its check time is written only with its outcome, so a cut-off story is done again. */
    async markProcessing(id: number): Promise<void> {
      await db.update(stories).set({ imageProcessingStatus: "processing" }).where(eq(stories.id, id));
    },

    /**
     * Writes a story's outcome: enhanced (its new image), skipped (nothing better to do) or failed
     * (the reason; the next bulk run tries it again).
     */
    async recordOutcome(
      id: number,
      outcome: { kind: "enhanced"; imageUrl: string } | { kind: "skipped"; reason: string } | { kind: "failed"; reason: string },
      at: Date,
    ): Promise<void> {
      const common = { imageCheckedAt: at };
      if (outcome.kind === "enhanced") {
        await db
          .update(stories)
          .set({ ...common, imageUrl: outcome.imageUrl, imageEnhanced: true, imageProcessingStatus: "completed", imageError: null, updatedAt: at })
          .where(eq(stories.id, id));
      } else if (outcome.kind === "skipped") {
        await db
          .update(stories)
          .set({ ...common, imageEnhanced: true, imageProcessingStatus: "skipped", imageError: outcome.reason })
          .where(eq(stories.id, id));
      } else {
        await db
          .update(stories)
          .set({ ...common, imageProcessingStatus: "failed", imageError: outcome.reason })
          .where(eq(stories.id, id));
      }
    },
  };
}
export type ImagesRepo = ReturnType<typeof imagesRepo>;
