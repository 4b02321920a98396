import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../client";
import { categories, socialMediaPosts, stories } from "../schema";

export type SocialPostRow = typeof socialMediaPosts.$inferSelect;

/** Data access of Facebook posting: the story to post, and its post rows. */
export function socialRepo(db: Db) {
  return {
    async storyToPost(storyId: number) {
      const [row] = await db
        .select({
          id: stories.id,
          title: stories.title,
          summary: stories.summary,
          slug: stories.slug,
          status: stories.status,
          imageUrl: stories.imageUrl,
          categorySlug: categories.slug,
        })
        .from(stories)
        .leftJoin(categories, eq(categories.id, stories.categoryId))
        .where(eq(stories.id, storyId))
        .limit(1);
      return row ?? null;
    },

    /** The story's posts on a platform, newest first. */
    async postsOf(storyId: number): Promise<SocialPostRow[]> {
      return db
        .select()
        .from(socialMediaPosts)
        .where(and(eq(socialMediaPosts.storyId, storyId), eq(socialMediaPosts.platform, "facebook")))
        .orderBy(desc(socialMediaPosts.createdAt));
    },

    /**
     * Records a post as pending before anything is sent; null when the story already has one pending
     * (a double click, a second tab, a concurrent run): the unique index decides, whoever comes first.
     */
    async insertPending(input: { storyId: number; message: string; link: string; requestedBy: string | null }): Promise<SocialPostRow | null> {
      const [row] = await db
        .insert(socialMediaPosts)
        .values({ ...input, platform: "facebook", status: "pending" })
        .onConflictDoNothing()
        .returning();
      return row ?? null;
    },

    async markPosted(id: number, input: { postId: string; permalinkUrl: string | null; at: Date }): Promise<SocialPostRow> {
      const [row] = await db
        .update(socialMediaPosts)
        .set({ status: "posted", postId: input.postId, permalinkUrl: input.permalinkUrl, postedAt: input.at, errorMessage: null, updatedAt: input.at })
        .where(eq(socialMediaPosts.id, id))
        .returning();
      if (!row) throw new Error(`social post ${id} is gone`);
      return row;
    },

    async markFailed(
      id: number,
      input: { errorMessage: string; errorCode: number | null; errorSubcode: number | null; fbtraceId: string | null; at: Date },
    ): Promise<SocialPostRow> {
      const { at, ...error } = input;
      const [row] = await db
        .update(socialMediaPosts)
        .set({ status: "failed", ...error, updatedAt: at })
        .where(eq(socialMediaPosts.id, id))
        .returning();
      if (!row) throw new Error(`social post ${id} is gone`);
      return row;
    },
  };
}
export type SocialRepo = ReturnType<typeof socialRepo>;
