import { eq, inArray, isNotNull, ne, sql, type SQL } from "drizzle-orm";
import type { Db } from "../client";
import { feedProcessingLog, rejectedStories, scrapedCandidates, sources, stories } from "../schema";
import { claimOfSources, sourceLeases, type ClaimSourcesInput } from "./source-leases";

export type IngestSourceRow = typeof sources.$inferSelect;

/** A pending story as ingestion proposes it; `altSlug` is used when `slug` is taken. */
export type PendingStoryDraft = {
  title: string;
  summary: string | null;
  content: string | null;
  imageUrl: string | null;
  originalUrl: string;
  normalizedUrl: string;
  urlHash: string;
  slug: string;
  altSlug: string;
  sourceId: number | null;
  categoryId: number | null;
  /** When the source says it published the item. */
  sourcePublishedAt: Date | null;
};

export type CandidateRecord = {
  sourceId: number | null;
  url: string;
  normalizedUrl: string | null;
  urlHash: string | null;
  title: string | null;
  outcome: "inserted" | "duplicate" | "previously_rejected" | "filtered_out" | "failed";
  reason: string | null;
  storyId: number | null;
};

export type SourceRunRecord = {
  sourceId: number;
  startedAt: Date;
  finishedAt: Date;
  httpStatus: number | null;
  itemsFound: number;
  itemsInserted: number;
  itemsDuplicate: number;
  itemsRejected: number;
  itemsFiltered: number;
  itemsFailed: number;
  notModified: boolean;
  error: string | null;
};

export type SourceStateUpdate = {
  status: "active" | "inactive" | "error";
  etag?: string | null;
  lastModified?: string | null;
  lastFetchedAt: Date;
  lastSuccessAt?: Date;
  lastHttpStatus: number | null;
  consecutiveErrors: number;
  lastError: string | null;
  nextCheckAt: Date;
};

const CANDIDATE_BATCH = 500;

/** Data access of the ingestion pipeline: claiming sources, dedup look-ups, storing stories and run records. */
export function ingestionRepo(db: Db) {
  /** Which of these URL hashes are already stories, and which were rejected before. */
  const knownUrlHashes = async (hashes: string[]): Promise<{ stories: Set<string>; rejected: Set<string> }> => {
    const known = { stories: new Set<string>(), rejected: new Set<string>() };
    if (hashes.length === 0) return known;
    // One statement for both tables: ingestion asks this once per feed, and on PGlite every statement counts.
    const rows = await db
      .select({ h: stories.urlHash, rejected: sql<boolean>`false` })
      .from(stories)
      .where(inArray(stories.urlHash, hashes))
      .unionAll(
        db
          .select({ h: rejectedStories.urlHash, rejected: sql<boolean>`true` })
          .from(rejectedStories)
          .where(inArray(rejectedStories.urlHash, hashes)),
      );
    for (const row of rows) (row.rejected ? known.rejected : known.stories).add(row.h);
    return known;
  };

  return {
    /**
     * Takes RSS sources for one runner: every polled one ("all"), or those whose next check is due.
     * A lease marks them taken, so a second runner at the same time skips them; it expires by itself.
     */
    async claimSources(input: ClaimSourcesInput): Promise<IngestSourceRow[]> {
      const conditions: SQL[] = [eq(sources.sourceType, "rss"), ne(sources.status, "inactive"), isNotNull(sources.rssFeedUrl)];
      return sourceLeases(db).claim(claimOfSources(conditions, input));
    },

    knownUrlHashes,

    /**
     * Inserts pending stories, skipping any whose URL is already a story (another runner may have
     * just stored it). Returns the inserted ones' ids by URL hash.
     */
    async insertPendingStories(drafts: PendingStoryDraft[]): Promise<Map<string, number>> {
      const inserted = new Map<string, number>();
      if (drafts.length === 0) return inserted;
      const taken = new Set(
        (await db.select({ slug: stories.slug }).from(stories).where(inArray(stories.slug, drafts.map((d) => d.slug)))).map((r) => r.slug),
      );
      const chosen = drafts.map((draft) => {
        const slug = taken.has(draft.slug) ? draft.altSlug : draft.slug;
        taken.add(slug);
        return { draft, slug };
      });
      const insert = async (rows: { draft: PendingStoryDraft; slug: string }[]) => {
        if (rows.length === 0) return;
        const returned = await db
          .insert(stories)
          .values(
            rows.map(({ draft, slug }) => ({
              title: draft.title,
              summary: draft.summary,
              content: draft.content,
              imageUrl: draft.imageUrl,
              originalUrl: draft.originalUrl,
              normalizedUrl: draft.normalizedUrl,
              urlHash: draft.urlHash,
              slug,
              sourceId: draft.sourceId,
              categoryId: draft.categoryId,
              sourcePublishedAt: draft.sourcePublishedAt,
              status: "pending" as const,
            })),
          )
          .onConflictDoNothing()
          .returning({ id: stories.id, urlHash: stories.urlHash });
        for (const row of returned) inserted.set(row.urlHash, row.id);
      };
      await insert(chosen);
      // Rows not inserted either lost a race for their URL (now a duplicate) or for their slug (retry once).
      const missing = chosen.filter(({ draft }) => !inserted.has(draft.urlHash));
      if (missing.length > 0) {
        const nowKnown = await knownUrlHashes(missing.map(({ draft }) => draft.urlHash));
        const retry = missing
          .filter(({ draft }) => !nowKnown.stories.has(draft.urlHash))
          .map(({ draft }) => ({ draft, slug: `${draft.altSlug}-${Date.now().toString(36)}` }));
        await insert(retry);
      }
      return inserted;
    },

    /** Records what happened to each item seen, in batches. */
    async recordCandidates(rows: CandidateRecord[]): Promise<void> {
      for (let i = 0; i < rows.length; i += CANDIDATE_BATCH) {
        await db.insert(scrapedCandidates).values(rows.slice(i, i + CANDIDATE_BATCH));
      }
    },

    /** Writes a source's run: its log row and its new fetch state, and releases its lease. */
    async finishSourceRun(run: SourceRunRecord, state: SourceStateUpdate): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.insert(feedProcessingLog).values({
          ...run,
          durationMs: Math.max(0, run.finishedAt.getTime() - run.startedAt.getTime()),
        });
        await tx
          .update(sources)
          .set({ ...state, leaseUntil: null, updatedAt: run.finishedAt })
          .where(eq(sources.id, run.sourceId));
      });
    },

    /** Gives claimed sources back untouched, for the next runner. */
    releaseLeases: (sourceIds: number[]) => sourceLeases(db).release(sourceIds),
    /** Keeps the sources a running cycle still holds leased, so a live runner's lease never lapses; returns those renewed. */
    renewLeases: (sourceIds: number[], leaseUntil: Date) => sourceLeases(db).renew(sourceIds, leaseUntil),

    async findSource(id: number): Promise<IngestSourceRow | null> {
      const [row] = await db.select().from(sources).where(eq(sources.id, id)).limit(1);
      return row ?? null;
    },
  };
}
export type IngestionRepo = ReturnType<typeof ingestionRepo>;
