import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

// Timestamps are always stored with their time zone.
const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
const createdAt = () => timestamptz("created_at").notNull().defaultNow();
const updatedAt = () => timestamptz("updated_at").notNull().defaultNow();

export const storyStatus = pgEnum("story_status", ["published", "pending", "rejected"]);
export const imageProcessingStatus = pgEnum("image_processing_status", [
  "pending",
  "processing",
  "completed",
  "skipped",
  "failed",
]);
export const sourceType = pgEnum("source_type", ["rss", "web_scraping", "manual"]);
export const sourceStatus = pgEnum("source_status", ["active", "inactive", "error"]);
export const urlQueueStatus = pgEnum("url_queue_status", ["queued", "scraped", "failed"]);
export const socialPlatform = pgEnum("social_platform", ["facebook"]);
export const socialPostStatus = pgEnum("social_post_status", ["pending", "posted", "failed"]);
export const candidateOutcome = pgEnum("candidate_outcome", [
  "inserted",
  "duplicate",
  "previously_rejected",
  "filtered_out",
  "failed",
]);
export const jobStatus = pgEnum("job_status", ["queued", "running", "succeeded", "failed", "cancelled"]);

// ---------------------------------------------------------------------------------------------
// Editorial content (spec section 3)

export const categories = pgTable(
  "categories",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    displayOrder: integer("display_order").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("categories_slug_key").on(t.slug),
    index("categories_display_order_idx").on(t.displayOrder),
    check("categories_name_not_blank", sql`btrim(${t.name}) <> ''`),
    check("categories_slug_not_blank", sql`btrim(${t.slug}) <> ''`),
  ],
);

export type ScrapingConfig = {
  startUrls?: string[];
  allowlistPatterns?: string[];
  denylistPatterns?: string[];
  jsRendering?: boolean;
  waitForSelector?: string;
  userAgent?: string;
  crawlDelay?: number;
  minBodyThreshold?: number;
  [key: string]: unknown;
};

export type DiscoveryStats = {
  at: string;
  durationMs: number;
  found: number;
  queued: number;
  skippedRobots: number;
  skippedKnown: number;
  skippedFiltered: number;
  errors: string[];
};

export const sources = pgTable(
  "sources",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    name: text("name").notNull(),
    websiteUrl: text("website_url"),
    rssFeedUrl: text("rss_feed_url"),
    sourceType: sourceType("source_type").notNull().default("rss"),
    scrapingConfig: jsonb("scraping_config").$type<ScrapingConfig>().notNull().default({}),
    status: sourceStatus("status").notNull().default("active"),
    includeKeywords: text("include_keywords").array().notNull().default(sql`'{}'::text[]`),
    excludeKeywords: text("exclude_keywords").array().notNull().default(sql`'{}'::text[]`),
    notes: text("notes"),
    // Fetch state, kept per source so polling is polite and resumable.
    pollIntervalMinutes: integer("poll_interval_minutes").notNull().default(30),
    etag: text("etag"),
    lastModified: text("last_modified"),
    lastFetchedAt: timestamptz("last_fetched_at"),
    nextCheckAt: timestamptz("next_check_at"),
    consecutiveErrors: integer("consecutive_errors").notNull().default(0),
    lastError: text("last_error"),
    lastSuccessAt: timestamptz("last_success_at"),
    lastHttpStatus: integer("last_http_status"),
    /** Set while a runner holds the source, so two runners never fetch it at once; expires by itself. */
    leaseUntil: timestamptz("lease_until"),
    /** The last URL discovery of a web_scraping source: what it found, queued and skipped. */
    lastDiscovery: jsonb("last_discovery").$type<DiscoveryStats>(),
    /** The category given to the stories this source brings in; null leaves them for the editor to choose. */
    defaultCategoryId: integer("default_category_id").references(() => categories.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("sources_created_at_idx").on(t.createdAt.desc().nullsFirst()),
    index("sources_due_idx").on(t.status, t.nextCheckAt),
    check("sources_name_not_blank", sql`btrim(${t.name}) <> ''`),
    check("sources_rss_has_feed", sql`${t.sourceType} <> 'rss' OR ${t.rssFeedUrl} IS NOT NULL`),
    check("sources_consecutive_errors_non_negative", sql`${t.consecutiveErrors} >= 0`),
  ],
);

export const stories = pgTable(
  "stories",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    title: text("title").notNull(),
    summary: text("summary"),
    content: text("content"),
    imageUrl: text("image_url"),
    originalUrl: text("original_url"),
    sourceUrl: text("source_url"),
    normalizedUrl: text("normalized_url").notNull(),
    urlHash: text("url_hash").notNull(),
    slug: text("slug").notNull(),
    publishDate: timestamptz("publish_date"),
    /** When the source itself reported the story (the article's or feed item's own date); null when it gave none. */
    sourcePublishedAt: timestamptz("source_published_at"),
    isFeatured: boolean("is_featured").notNull().default(false),
    status: storyStatus("status").notNull().default("pending"),
    // A deleted category leaves its stories 'Uncategorized' rather than deleting them.
    categoryId: integer("category_id").references(() => categories.id, { onDelete: "set null" }),
    // Content is never removed implicitly: deleting a source removes its stories explicitly, in order.
    sourceId: integer("source_id").references(() => sources.id, { onDelete: "restrict" }),
    imageEnhanced: boolean("image_enhanced").notNull().default(false),
    imageProcessingStatus: imageProcessingStatus("image_processing_status"),
    /** Why the last image enhancement failed or was skipped. */
    imageError: text("image_error"),
    /** When image enhancement last looked at this story (a resumed run skips what its first part did). */
    imageCheckedAt: timestamptz("image_checked_at"),
    /** The last enhancement failed for a reason that will not change by itself (no picture on the page, the page gone): not work again until the story's URL or picture changes. */
    imageFailurePermanent: boolean("image_failure_permanent").notNull().default(false),
    /** The picture's size in pixels when measured (by enhancement or when the site first fetched it); null when not known. */
    imageWidth: integer("image_width"),
    imageHeight: integer("image_height"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("stories_url_hash_key").on(t.urlHash),
    uniqueIndex("stories_slug_key").on(t.slug),
    // Public reads: home and feeds (latest published), featured block, category pages.
    index("stories_published_date_idx")
      .on(t.publishDate.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.status} = 'published'`),
    index("stories_published_featured_idx")
      .on(t.publishDate.desc().nullsFirst())
      .where(sql`${t.status} = 'published' AND ${t.isFeatured}`),
    index("stories_published_category_idx")
      .on(t.categoryId, t.publishDate.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.status} = 'published'`),
    // The back office's search: case-insensitive substring match on title and summary, every status.
    index("stories_title_trgm_idx").using("gin", sql`${t.title} gin_trgm_ops`),
    index("stories_summary_trgm_idx").using("gin", sql`${t.summary} gin_trgm_ops`),
    // Public search reads columns and indexes this file does not declare, so that no story read
    // carries them: search_title, search_body, search_title_vector and search_vector, generated by
    // the database, with their indexes (migration 0009, docs/decisions/011-search.md).
    // Back office: lists by status, per source, recent activity, image work.
    index("stories_status_created_idx").on(t.status, t.createdAt.desc().nullsFirst()),
    index("stories_source_idx").on(t.sourceId),
    index("stories_created_at_idx").on(t.createdAt.desc().nullsFirst()),
    index("stories_image_work_idx")
      .on(t.id)
      .where(sql`(${t.imageEnhanced} = false OR ${t.imageProcessingStatus} = 'failed') AND NOT ${t.imageFailurePermanent}`),
    check("stories_title_not_blank", sql`btrim(${t.title}) <> ''`),
    check("stories_published_has_date", sql`${t.status} <> 'published' OR ${t.publishDate} IS NOT NULL`),
  ],
);

// Each category's published stories, featured included (the count its page, its home card and the
// admin show), kept by triggers on stories (migration 0011) so no page counts a million rows. A
// category with none has no row.
export const categoryStoryCounts = pgTable("category_story_counts", {
  categoryId: integer("category_id")
    .primaryKey()
    .references(() => categories.id, { onDelete: "cascade" }),
  published: integer("published").notNull(),
});

export type RejectionDetails = {
  rejection_method: "admin_manual" | string;
  original_story_id: number | null;
  rejected_by_admin: boolean;
  rejected_at: string;
  [key: string]: unknown;
};

export const rejectedStories = pgTable(
  "rejected_stories",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    sourceId: integer("source_id").references(() => sources.id, { onDelete: "restrict" }),
    title: text("title").notNull(),
    originalUrl: text("original_url"),
    normalizedUrl: text("normalized_url").notNull(),
    urlHash: text("url_hash").notNull(),
    contentHash: text("content_hash"),
    rejectionReason: text("rejection_reason").notNull().default("manual_rejection"),
    rejectionDetails: jsonb("rejection_details").$type<RejectionDetails>(),
    rejectedAt: timestamptz("rejected_at").notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("rejected_stories_normalized_url_key").on(t.normalizedUrl),
    index("rejected_stories_url_hash_idx").on(t.urlHash),
    index("rejected_stories_source_idx").on(t.sourceId),
    index("rejected_stories_rejected_at_idx").on(t.rejectedAt.desc().nullsFirst()),
  ],
);

export const urlQueue = pgTable(
  "url_queue",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    /** The URL as discovered: what is fetched. Its normalised form identifies it. */
    url: text("url").notNull(),
    normalizedUrl: text("normalized_url").notNull(),
    urlHash: text("url_hash").notNull(),
    lastmod: timestamptz("lastmod"),
    sourceId: integer("source_id").references(() => sources.id, { onDelete: "cascade" }),
    status: urlQueueStatus("status").notNull().default("queued"),
    error: text("error"),
    /** Failed scrapes so far; the third makes the row failed. */
    attempts: integer("attempts").notNull().default(0),
    lastAttemptAt: timestamptz("last_attempt_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("url_queue_url_key").on(t.url),
    uniqueIndex("url_queue_url_hash_key").on(t.urlHash),
    // The URL Que list: newest lastmod first, by status, by source and status, or across all.
    index("url_queue_status_idx").on(t.status, t.lastmod.desc().nullsLast(), t.id.desc()),
    index("url_queue_source_idx").on(t.sourceId, t.status, t.lastmod.desc().nullsLast(), t.id.desc()),
    index("url_queue_lastmod_idx").on(t.lastmod.desc().nullsLast(), t.id.desc()),
    // 'Search URL': case-insensitive substring.
    index("url_queue_url_trgm_idx").using("gin", sql`${t.url} gin_trgm_ops`),
    check("url_queue_attempts_non_negative", sql`${t.attempts} >= 0`),
  ],
);

/**
 * Politeness and robots.txt per origin, shared by every process: who holds the origin now, when
 * the next request may start, a pause asked for by the server, and the cached robots.txt.
 */
export const crawlHosts = pgTable("crawl_hosts", {
  origin: text("origin").primaryKey(),
  leaseUntil: timestamptz("lease_until"),
  nextFetchAt: timestamptz("next_fetch_at"),
  pausedUntil: timestamptz("paused_until"),
  robotsStatus: integer("robots_status"),
  robotsBody: text("robots_body"),
  robotsFetchedAt: timestamptz("robots_fetched_at"),
  updatedAt: updatedAt(),
});

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

export const feedProcessingLog = pgTable(
  "feed_processing_log",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    sourceId: integer("source_id")
      .notNull()
      .references(() => sources.id, { onDelete: "cascade" }),
    startedAt: timestamptz("started_at").notNull().defaultNow(),
    finishedAt: timestamptz("finished_at"),
    httpStatus: integer("http_status"),
    itemsFound: integer("items_found").notNull().default(0),
    itemsInserted: integer("items_inserted").notNull().default(0),
    itemsDuplicate: integer("items_duplicate").notNull().default(0),
    itemsRejected: integer("items_rejected").notNull().default(0),
    itemsFiltered: integer("items_filtered").notNull().default(0),
    itemsFailed: integer("items_failed").notNull().default(0),
    notModified: boolean("not_modified").notNull().default(false),
    durationMs: integer("duration_ms"),
    error: text("error"),
  },
  (t) => [index("feed_processing_log_source_idx").on(t.sourceId, t.startedAt.desc().nullsFirst())],
);

export const scrapedCandidates = pgTable(
  "scraped_candidates",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    sourceId: integer("source_id").references(() => sources.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    normalizedUrl: text("normalized_url"),
    urlHash: text("url_hash"),
    title: text("title"),
    outcome: candidateOutcome("outcome").notNull(),
    reason: text("reason"),
    storyId: integer("story_id").references(() => stories.id, { onDelete: "set null" }),
    seenAt: timestamptz("seen_at").notNull().defaultNow(),
  },
  (t) => [
    index("scraped_candidates_source_idx").on(t.sourceId, t.seenAt.desc().nullsFirst()),
    index("scraped_candidates_url_hash_idx").on(t.urlHash),
  ],
);

// ---------------------------------------------------------------------------------------------
// Accounts: the tables better-auth expects (model names user, session, account, verification,
// with plural table names), plus our admin flag.

export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    emailVerified: boolean("email_verified").notNull().default(false),
    image: text("image"),
    isAdmin: boolean("is_admin").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("users_email_key").on(sql`lower(${t.email})`)],
);

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    token: text("token").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamptz("expires_at").notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("sessions_token_key").on(t.token), index("sessions_user_idx").on(t.userId)],
);

export const accounts = pgTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamptz("access_token_expires_at"),
    refreshTokenExpiresAt: timestamptz("refresh_token_expires_at"),
    scope: text("scope"),
    password: text("password"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("accounts_user_idx").on(t.userId),
    uniqueIndex("accounts_provider_account_key").on(t.providerId, t.accountId),
  ],
);

export const verifications = pgTable(
  "verifications",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("verifications_identifier_idx").on(t.identifier)],
);

// ---------------------------------------------------------------------------------------------
// Operations

/** Durable record of background work: the queue's job id, progress while it runs, and its outcome. */
// Sign-in, sign-up and reset-mail limits, by client address and by account: kept in the database so
// every process counts against the same limit and a restart forgets nothing. One row per key and
// window; rows whose window ended long ago are pruned.
export const authRateLimits = pgTable(
  "auth_rate_limits",
  {
    key: text("key").primaryKey(),
    hits: integer("hits").notNull(),
    windowStartedAt: timestamptz("window_started_at").notNull().defaultNow(),
  },
  (t) => [index("auth_rate_limits_window_idx").on(t.windowStartedAt)],
);

export const jobs = pgTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    status: jobStatus("status").notNull().default("queued"),
    progress: integer("progress").notNull().default(0),
    total: integer("total"),
    message: text("message"),
    /** Running counts a job reports beside its progress (enhanced, failed, skipped...). */
    counts: jsonb("counts").$type<Record<string, number>>(),
    /** Set when someone asks a queued or running job to stop; the job ends as cancelled. */
    cancelRequestedAt: timestamptz("cancel_requested_at"),
    input: jsonb("input").$type<Record<string, unknown>>(),
    result: jsonb("result").$type<Record<string, unknown>>(),
    error: text("error"),
    requestedBy: text("requested_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    startedAt: timestamptz("started_at"),
    finishedAt: timestamptz("finished_at"),
    /**
     * While a job runs, its process renews this every few seconds; a running job whose lease has
     * lapsed lost its process (kill -9, a lost machine) and is taken up again by a live worker.
     */
    leaseUntil: timestamptz("lease_until"),
  },
  (t) => [
    index("jobs_kind_created_idx").on(t.kind, t.createdAt.desc().nullsFirst()),
    index("jobs_status_idx").on(t.status),
    // An interrupted job is taken up again once, however many workers notice it at the same moment.
    uniqueIndex("jobs_resumed_from_idx").on(sql`(${t.input}->>'resumed_from')`).where(sql`${t.input} ? 'resumed_from'`),
  ],
);

/** Who did what to which record, and when. No foreign key on the entity: the trail outlives it. */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    actorUserId: text("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action").notNull(),
    entityType: text("entity_type").notNull(),
    entityId: text("entity_id").notNull(),
    details: jsonb("details").$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    index("audit_log_entity_idx").on(t.entityType, t.entityId, t.createdAt.desc().nullsFirst()),
    index("audit_log_actor_idx").on(t.actorUserId, t.createdAt.desc().nullsFirst()),
  ],
);

export const schema = {
  storyStatus,
  imageProcessingStatus,
  sourceType,
  sourceStatus,
  urlQueueStatus,
  socialPlatform,
  socialPostStatus,
  candidateOutcome,
  jobStatus,
  categories,
  sources,
  stories,
  rejectedStories,
  urlQueue,
  socialMediaPosts,
  feedProcessingLog,
  scrapedCandidates,
  users,
  sessions,
  accounts,
  verifications,
  jobs,
  auditLog,
};
