import { and, asc, desc, eq, inArray, isNotNull, isNull, notExists, sql } from "drizzle-orm";
import type { Db } from "../client";
import { categories, socialMediaPosts, stories } from "../schema";
import { insertAudit, type AuditRecord } from "./audit.repo";

export type SocialPostRow = typeof socialMediaPosts.$inferSelect;

/** A post as the Social Media page lists it: the row with its story's title and slug. */
export type SocialPostListItem = SocialPostRow & { storyTitle: string; storySlug: string };

/** A published story that may be posted, with what the composer and its preview card need. */
export type PostableStory = {
  id: number;
  title: string;
  summary: string | null;
  slug: string;
  imageUrl: string | null;
  /** The picture's measured width, when known (a picture under 600 px is shared as the story's card). */
  imageWidth: number | null;
  publishDate: Date | null;
  categoryName: string | null;
  categorySlug: string | null;
};

type PostError = { errorMessage: string; errorCode: number | null; errorSubcode: number | null; fbtraceId: string | null };

const postableColumns = {
  id: stories.id,
  title: stories.title,
  summary: stories.summary,
  slug: stories.slug,
  imageUrl: stories.imageUrl,
  imageWidth: stories.imageWidth,
  publishDate: stories.publishDate,
  categoryName: categories.name,
  categorySlug: categories.slug,
};

const listColumns = { post: socialMediaPosts, storyTitle: stories.title, storySlug: stories.slug };
const listItem = (row: { post: SocialPostRow; storyTitle: string; storySlug: string }): SocialPostListItem => ({
  ...row.post,
  storyTitle: row.storyTitle,
  storySlug: row.storySlug,
});

/** Data access of Facebook posting: the stories to post, and their post rows. */
export function socialRepo(db: Db) {
  return {
    async storyToPost(storyId: number) {
      const [row] = await db
        .select({ ...postableColumns, status: stories.status })
        .from(stories)
        .leftJoin(categories, eq(categories.id, stories.categoryId))
        .where(eq(stories.id, storyId))
        .limit(1);
      return row ?? null;
    },

    /**
     * The newest published stories with no Facebook post made or under way (spec: 20 items), newest
     * publish date first. Served by the published-by-date index; the anti-join probes the story index.
     */
    async readyToPost(limit: number): Promise<PostableStory[]> {
      return db
        .select(postableColumns)
        .from(stories)
        .leftJoin(categories, eq(categories.id, stories.categoryId))
        .where(
          and(
            eq(stories.status, "published"),
            notExists(
              db
                .select({ one: sql`1` })
                .from(socialMediaPosts)
                .where(
                  and(
                    eq(socialMediaPosts.storyId, stories.id),
                    eq(socialMediaPosts.platform, "facebook"),
                    inArray(socialMediaPosts.status, ["posted", "pending"]),
                  ),
                ),
            ),
          ),
        )
        .orderBy(sql`${stories.publishDate} DESC NULLS LAST`, desc(stories.id))
        .limit(limit);
    },

    /** The newest Facebook posts with their stories (spec: 20 items, created_at descending). */
    async recentPosts(limit: number): Promise<SocialPostListItem[]> {
      const rows = await db
        .select(listColumns)
        .from(socialMediaPosts)
        .innerJoin(stories, eq(stories.id, socialMediaPosts.storyId))
        .where(eq(socialMediaPosts.platform, "facebook"))
        .orderBy(desc(socialMediaPosts.createdAt), desc(socialMediaPosts.id))
        .limit(limit);
      return rows.map(listItem);
    },

    /** Posts waiting for their chosen time, soonest first. */
    async scheduledPosts(limit: number): Promise<SocialPostListItem[]> {
      const rows = await db
        .select(listColumns)
        .from(socialMediaPosts)
        .innerJoin(stories, eq(stories.id, socialMediaPosts.storyId))
        .where(and(eq(socialMediaPosts.platform, "facebook"), eq(socialMediaPosts.status, "pending"), isNotNull(socialMediaPosts.scheduledFor)))
        .orderBy(asc(socialMediaPosts.scheduledFor), asc(socialMediaPosts.id))
        .limit(limit);
      return rows.map(listItem);
    },

    /** When the newest Facebook post went out, or null when none has. */
    async lastPostedAt(): Promise<Date | null> {
      const [row] = await db
        .select({ at: sql<Date | null>`max(${socialMediaPosts.postedAt})`.mapWith(socialMediaPosts.postedAt) })
        .from(socialMediaPosts)
        .where(and(eq(socialMediaPosts.platform, "facebook"), eq(socialMediaPosts.status, "posted")));
      return row?.at ?? null;
    },

    async findById(id: number): Promise<SocialPostRow | null> {
      const [row] = await db.select().from(socialMediaPosts).where(eq(socialMediaPosts.id, id)).limit(1);
      return row ?? null;
    },

    /** The story's Facebook posts, newest first. */
    async postsOf(storyId: number): Promise<SocialPostRow[]> {
      return db
        .select()
        .from(socialMediaPosts)
        .where(and(eq(socialMediaPosts.storyId, storyId), eq(socialMediaPosts.platform, "facebook")))
        .orderBy(desc(socialMediaPosts.createdAt), desc(socialMediaPosts.id));
    },

    /**
     * Records a post as pending before anything is sent, with its audit entry; null when the story
     * already has one pending (a double click, a second tab, a concurrent run): the unique index decides,
     * whoever comes first.
     */
    async insertPending(
      input: { storyId: number; message: string; link: string; requestedBy: string | null; scheduledFor: Date | null },
      audit: AuditRecord,
    ): Promise<SocialPostRow | null> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(socialMediaPosts)
          .values({ ...input, platform: "facebook", status: "pending" })
          .onConflictDoNothing()
          .returning();
        if (row) await insertAudit(tx, "story", input.storyId, { ...audit, details: { ...audit.details, postRowId: row.id } });
        return row ?? null;
      });
    },

    /** Names the job that makes the post's next attempt. */
    async setJob(id: number, jobId: string): Promise<void> {
      await db.update(socialMediaPosts).set({ jobId, updatedAt: sql`now()` }).where(eq(socialMediaPosts.id, id));
    },

    /**
     * Counts an attempt and marks a publish call as sent, only if the row is still pending and its
     * last attempt mark is still `seen` (compare and set): of two jobs for one post, one calls Facebook.
     * Null when another attempt got there first or the row was settled.
     */
    async beginAttempt(id: number, seen: Date | null, at: Date): Promise<SocialPostRow | null> {
      const [row] = await db
        .update(socialMediaPosts)
        .set({ attempts: sql`${socialMediaPosts.attempts} + 1`, attemptStartedAt: at, nextAttemptAt: null, updatedAt: at })
        .where(
          and(
            eq(socialMediaPosts.id, id),
            eq(socialMediaPosts.status, "pending"),
            seen === null ? isNull(socialMediaPosts.attemptStartedAt) : eq(socialMediaPosts.attemptStartedAt, seen),
          ),
        )
        .returning();
      return row ?? null;
    },

    async markPosted(id: number, input: { postId: string; permalinkUrl: string | null; at: Date }): Promise<SocialPostRow> {
      const [row] = await db
        .update(socialMediaPosts)
        .set({
          status: "posted",
          postId: input.postId,
          permalinkUrl: input.permalinkUrl,
          postedAt: input.at,
          errorMessage: null,
          errorCode: null,
          errorSubcode: null,
          fbtraceId: null,
          attemptStartedAt: null,
          nextAttemptAt: null,
          updatedAt: input.at,
        })
        .where(eq(socialMediaPosts.id, id))
        .returning();
      if (!row) throw new Error(`social post ${id} is gone`);
      return row;
    },

    async markFailed(id: number, input: PostError & { at: Date }): Promise<SocialPostRow> {
      const { at, ...error } = input;
      const [row] = await db
        .update(socialMediaPosts)
        .set({ status: "failed", ...error, attemptStartedAt: null, nextAttemptAt: null, updatedAt: at })
        .where(eq(socialMediaPosts.id, id))
        .returning();
      if (!row) throw new Error(`social post ${id} is gone`);
      return row;
    },

    /**
     * Keeps a post pending for another attempt at `nextAttemptAt`, with the reason it waits. An attempt
     * whose outcome is unknown stays marked as sent, so the next one looks for it on the Page first.
     */
    async deferAttempt(id: number, input: PostError & { nextAttemptAt: Date; outcomeUnknown: boolean; at: Date }): Promise<SocialPostRow> {
      const { at, nextAttemptAt, outcomeUnknown, ...error } = input;
      const [row] = await db
        .update(socialMediaPosts)
        .set({ ...error, nextAttemptAt, ...(outcomeUnknown ? {} : { attemptStartedAt: null }), updatedAt: at })
        .where(and(eq(socialMediaPosts.id, id), eq(socialMediaPosts.status, "pending")))
        .returning();
      if (!row) throw new Error(`social post ${id} is no longer pending`);
      return row;
    },

    /**
     * Removes a scheduled post that has not been tried yet, with its audit entry; null when there is
     * none such (already posted, failed, under way, or never scheduled).
     */
    async cancelScheduled(id: number, audit: AuditRecord): Promise<SocialPostRow | null> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .delete(socialMediaPosts)
          .where(
            and(
              eq(socialMediaPosts.id, id),
              eq(socialMediaPosts.status, "pending"),
              isNotNull(socialMediaPosts.scheduledFor),
              isNull(socialMediaPosts.attemptStartedAt),
              eq(socialMediaPosts.attempts, 0),
            ),
          )
          .returning();
        if (row) await insertAudit(tx, "story", row.storyId, { ...audit, details: { ...audit.details, postRowId: row.id } });
        return row ?? null;
      });
    },
  };
}
export type SocialRepo = ReturnType<typeof socialRepo>;
