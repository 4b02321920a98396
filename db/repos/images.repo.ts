import { and, desc, eq, inArray, or, sql } from "drizzle-orm";
import type { Db } from "../client";
import { stories } from "../schema";

/** A picture's size in pixels. */
export type ImageSize = { width: number; height: number };

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
      outcome:
        | { kind: "enhanced"; imageUrl: string; size: ImageSize }
        | { kind: "skipped"; reason: string; size?: ImageSize | null }
        | { kind: "failed"; reason: string },
      at: Date,
    ): Promise<void> {
      const common = { imageCheckedAt: at };
      if (outcome.kind === "enhanced") {
        await db
          .update(stories)
          .set({
            ...common,
            imageUrl: outcome.imageUrl,
            imageWidth: outcome.size.width,
            imageHeight: outcome.size.height,
            imageEnhanced: true,
            imageProcessingStatus: "completed",
            imageError: null,
            updatedAt: at,
          })
          .where(eq(stories.id, id));
      } else if (outcome.kind === "skipped") {
        const size = outcome.size ? { imageWidth: outcome.size.width, imageHeight: outcome.size.height } : {};
        await db
          .update(stories)
          .set({ ...common, ...size, imageEnhanced: true, imageProcessingStatus: "skipped", imageError: outcome.reason })
          .where(eq(stories.id, id));
      } else {
        await db
          .update(stories)
          .set({ ...common, imageProcessingStatus: "failed", imageError: outcome.reason })
          .where(eq(stories.id, id));
      }
    },

    /**
     * Keeps the measured size of a story's picture, if the story still has that picture (`imageUrl`
     * as stored): a picture changed meanwhile is left to be measured afresh. True when written.
     */
    async recordImageSize(id: number, imageUrl: string, size: ImageSize): Promise<boolean> {
      const rows = await db
        .update(stories)
        .set({ imageWidth: size.width, imageHeight: size.height })
        .where(and(eq(stories.id, id), eq(stories.imageUrl, imageUrl)))
        .returning({ id: stories.id });
      return rows.length > 0;
    },

    /** A story's stored picture URL and its size when measured; null when there is no such story. */
    async imageOf(id: number): Promise<{ imageUrl: string | null; width: number | null; height: number | null } | null> {
      const [row] = await db
        .select({ imageUrl: stories.imageUrl, width: stories.imageWidth, height: stories.imageHeight })
        .from(stories)
        .where(eq(stories.id, id))
        .limit(1);
      return row ?? null;
    },
  };
}
export type ImagesRepo = ReturnType<typeof imagesRepo>;
