import { sql } from "drizzle-orm";
import { index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, timestamptz, updatedAt } from "./columns";
import { socialPlatform, socialPostStatus } from "./enums";
import { stories } from "./editorial";
import { users } from "./accounts";

export const socialMediaPosts = pgTable(
  "social_media_posts",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    storyId: integer("story_id")
      .notNull()
      .references(() => stories.id, { onDelete: "cascade" }),
    platform: socialPlatform("platform").notNull().default("facebook"),
    status: socialPostStatus("status").notNull().default("pending"),
    message: text("message"),
    /** The story page the post links to (SITE_URL/story/{slug} when it was made). */
    link: text("link"),
    postedAt: timestamptz("posted_at"),
    postId: text("post_id"),
    permalinkUrl: text("permalink_url"),
    errorMessage: text("error_message"),
    /** The Graph API's error code, subcode and trace id of a failed post (for support and the log). */
    errorCode: integer("error_code"),
    errorSubcode: integer("error_subcode"),
    fbtraceId: text("fbtrace_id"),
    requestedBy: text("requested_by").references(() => users.id, { onDelete: "set null" }),
    /** When a scheduled post is due; null for a post made at once. */
    scheduledFor: timestamptz("scheduled_for"),
    /** Graph API publish calls made for this post so far. */
    attempts: integer("attempts").notNull().default(0),
    /**
     * Set when a publish call is sent, cleared when its answer settles the row: a pending row that has
     * it was cut off or timed out after sending, and is looked for on the Page before any new call.
     */
    attemptStartedAt: timestamptz("attempt_started_at"),
    /** When a post held back by a rate limit or a passing failure is tried again. */
    nextAttemptAt: timestamptz("next_attempt_at"),
    /** The background job that will make (or is making) the next attempt. */
    jobId: text("job_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("social_media_posts_platform_created_idx").on(t.platform, t.createdAt.desc().nullsFirst()),
    index("social_media_posts_story_idx").on(t.storyId, t.platform, t.status),
    // Never twice by accident: one post of a story in flight at a time.
    uniqueIndex("social_media_posts_one_pending_key").on(t.storyId, t.platform).where(sql`${t.status} = 'pending'`),
  ],
);
