import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, timestamptz, updatedAt } from "./columns";
import { candidateOutcome, urlQueueStatus } from "./enums";
import { sources, stories } from "./editorial";

// Finding stories: the URL queue, each origin's politeness, and the record of every run and item.

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
