import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, real, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, timestamptz, updatedAt } from "./columns";
import { imageProcessingStatus, sourceStatus, sourceType, storyStatus } from "./enums";

// Editorial content

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
    /** Triage: how likely the desk is to publish this pending story, 0 to 1, by the last ranking model; null before one. */
    triageScore: real("triage_score"),
    /** Triage: the category the desk's published stories suggest, and how sure (0 to 1); null when none stands out. */
    suggestedCategoryId: integer("suggested_category_id").references(() => categories.id, { onDelete: "set null" }),
    suggestedCategoryConfidence: real("suggested_category_confidence"),
    /** Triage: pending stories that report one event share a group (the id of its first story); null alone. */
    sameStoryGroup: integer("same_story_group"),
    /** Why this story was grouped with the others, in the editor's words. */
    sameStoryReason: text("same_story_reason"),
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
    // Pending, most likely first: the triage order of the Stories screen.
    index("stories_pending_triage_idx")
      .on(t.triageScore.desc().nullsLast(), t.id.desc())
      .where(sql`${t.status} = 'pending'`),
    index("stories_same_story_group_idx").on(t.sameStoryGroup).where(sql`${t.sameStoryGroup} IS NOT NULL`),
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
    /** Kept so the desk's rejections teach the triage model what it does not publish. */
    summary: text("summary"),
    originalUrl: text("original_url"),
    normalizedUrl: text("normalized_url").notNull(),
    urlHash: text("url_hash").notNull(),
    contentHash: text("content_hash"),
    rejectionReason: text("rejection_reason").notNull().default("manual_rejection"),
    rejectionDetails: jsonb("rejection_details").$type<RejectionDetails>(),
    rejectedAt: timestamptz("rejected_at").notNull().defaultNow(),
    /** When the story came in (its row's creation), for each source's yield; the rejection time for rows older than this column. */
    ingestedAt: timestamptz("ingested_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("rejected_stories_normalized_url_key").on(t.normalizedUrl),
    index("rejected_stories_url_hash_idx").on(t.urlHash),
    index("rejected_stories_source_idx").on(t.sourceId),
    index("rejected_stories_rejected_at_idx").on(t.rejectedAt.desc().nullsFirst()),
  ],
);

/**
 * The triage models learned from the desk's decisions: the ranking (likely to be published) and the
 * category suggestion, each kept as JSON. The newest row of a kind is the one in use; a failed
 * retrain adds none, so the last good model stays.
 */
export const triageModels = pgTable(
  "triage_models",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    kind: text("kind").$type<"ranking" | "category">().notNull(),
    trainedAt: timestamptz("trained_at").notNull().defaultNow(),
    /** The decisions it learned from. */
    published: integer("published").notNull(),
    rejected: integer("rejected").notNull(),
    model: jsonb("model").notNull(),
  },
  (t) => [index("triage_models_kind_trained_idx").on(t.kind, t.trainedAt.desc())],
);
