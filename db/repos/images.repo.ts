import { and, desc, eq, inArray, isNotNull, sql, type SQL } from "drizzle-orm";
import type { Db } from "../client";
import { jobs, stories } from "../schema";

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

// The spec's "needs work": never enhanced, or failed last time, unless that failure will stay until the
// story's page or picture changes. Written as stories_image_work_idx's predicate (migration 0013), word
// for word, so the planner can serve it from that index.
export const NEEDS_IMAGE_WORK = sql`(${stories.imageEnhanced} = false OR ${stories.imageProcessingStatus} = 'failed') AND NOT ${stories.imageFailurePermanent}`;

/** A story whose last enhancement failed for a lasting reason, as the panel lists it. */
export type LastingFailure = { id: number; title: string; reason: string | null; checkedAt: Date | null };

/** Measured speed of recent bulk runs: stories looked at, and the time they took. */
export type RunThroughput = { runs: number; stories: number; seconds: number };

/**
 * What a story's write does to its image work (for the repo method that writes a story's editable
 * fields, `fields` as given to it): a new page URL is work for enhancement again, whatever the old page
 * gave; a new page URL or picture may end a lasting failure, so the flag is kept only when none changes.
 */
export function imageWorkReset(fields: { imageUrl?: string | null; sourceUrl?: string | null; originalUrl?: string | null }) {
  const same: SQL[] = [];
  if (fields.imageUrl !== undefined) same.push(sql`${stories.imageUrl} is not distinct from ${fields.imageUrl}`);
  if (fields.sourceUrl !== undefined) same.push(sql`${stories.sourceUrl} is not distinct from ${fields.sourceUrl}`);
  if (fields.originalUrl !== undefined) same.push(sql`${stories.originalUrl} is not distinct from ${fields.originalUrl}`);
  const samePage = fields.originalUrl === undefined ? null : sql`${stories.originalUrl} is not distinct from ${fields.originalUrl}`;
  return {
    ...(same.length === 0 ? {} : { imageFailurePermanent: sql<boolean>`(${stories.imageFailurePermanent} and ${and(...same)})` }),
    ...(samePage === null
      ? {}
      : {
          imageEnhanced: sql<boolean>`(${stories.imageEnhanced} and ${samePage})`,
          imageProcessingStatus: sql`case when ${samePage} then ${stories.imageProcessingStatus} end`,
        }),
  };
}

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
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(stories).where(NEEDS_IMAGE_WORK);
      return Number(row?.n ?? 0);
    },

    /** How many stories failed for a lasting reason, and the newest checked of them. */
    async lastingFailures(limit: number): Promise<{ count: number; stories: LastingFailure[] }> {
      const [[total], rows] = await Promise.all([
        db.select({ n: sql<number>`count(*)::int` }).from(stories).where(eq(stories.imageFailurePermanent, true)),
        db
          .select({ id: stories.id, title: stories.title, reason: stories.imageError, checkedAt: stories.imageCheckedAt })
          .from(stories)
          .where(eq(stories.imageFailurePermanent, true))
          .orderBy(sql`${stories.imageCheckedAt} DESC NULLS LAST`, desc(stories.id))
          .limit(limit),
      ]);
      return { count: Number(total?.n ?? 0), stories: rows };
    },

    /** Ids of stories that failed for a lasting reason, newest first (a retry of all of them). */
    async idsFailedForGood(limit: number): Promise<number[]> {
      const rows = await db.select({ id: stories.id }).from(stories).where(eq(stories.imageFailurePermanent, true)).orderBy(desc(stories.id)).limit(limit);
      return rows.map((r) => r.id);
    },

    /**
     * The speed of the newest bulk runs (fixed story lists: Enhance All, 10, 50, retries) that looked
     * at a story or more, finished or cancelled: null when there is none yet.
     */
    async recentThroughput(runs: number): Promise<RunThroughput | null> {
      const recent = db
        .select({ stories: jobs.progress, seconds: sql<number>`extract(epoch from ${jobs.finishedAt} - ${jobs.startedAt})`.as("seconds") })
        .from(jobs)
        .where(
          and(
            eq(jobs.kind, "enhance-images"),
            inArray(jobs.status, ["succeeded", "cancelled"]),
            isNotNull(jobs.startedAt),
            isNotNull(jobs.finishedAt),
            sql`${jobs.progress} > 0`,
            sql`${jobs.input} ? 'storyIds'`,
          ),
        )
        .orderBy(sql`${jobs.createdAt} DESC NULLS FIRST`)
        .limit(runs)
        .as("recent");
      const [row] = await db
        .select({ runs: sql<number>`count(*)::int`, stories: sql<number>`coalesce(sum(${recent.stories}), 0)::int`, seconds: sql<number>`coalesce(sum(${recent.seconds}), 0)::float8` })
        .from(recent);
      if (!row || row.runs === 0) return null;
      return { runs: Number(row.runs), stories: Number(row.stories), seconds: Number(row.seconds) };
    },

    /** Ids of stories that need work, newest first. */
    async idsNeedingWork(limit: number): Promise<number[]> {
      const rows = await db.select({ id: stories.id }).from(stories).where(NEEDS_IMAGE_WORK).orderBy(desc(stories.id)).limit(limit);
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
     * (the reason; the next bulk run tries it again, unless the failure is lasting: then it waits
     * for its page or picture to change, or an editor's retry).
     */
    async recordOutcome(
      id: number,
      outcome:
        | { kind: "enhanced"; imageUrl: string; size: ImageSize }
        | { kind: "skipped"; reason: string; size?: ImageSize | null }
        | { kind: "failed"; reason: string; lasting?: boolean },
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
            imageFailurePermanent: false,
            updatedAt: at,
          })
          .where(eq(stories.id, id));
      } else if (outcome.kind === "skipped") {
        const size = outcome.size ? { imageWidth: outcome.size.width, imageHeight: outcome.size.height } : {};
        await db
          .update(stories)
          .set({ ...common, ...size, imageEnhanced: true, imageProcessingStatus: "skipped", imageError: outcome.reason, imageFailurePermanent: false })
          .where(eq(stories.id, id));
      } else {
        await db
          .update(stories)
          .set({ ...common, imageProcessingStatus: "failed", imageError: outcome.reason, imageFailurePermanent: outcome.lasting === true })
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
