import { and, eq, ilike, inArray, isNull, lte, ne, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../client";
import { crawlHosts, rejectedStories, sources, stories, urlQueue, type DiscoveryStats } from "../schema";
import { leasesOf } from "./leases";
import { claimOfSources, sourceLeases, type ClaimSourcesInput } from "./source-leases";
import { containsPattern } from "~/lib/like-pattern";

export type CrawlSourceRow = typeof sources.$inferSelect;
export type UrlQueueStatus = (typeof urlQueue.$inferSelect)["status"];

/** A discovered URL on its way into the queue (the demo also brings rows already worked on). */
export type QueueCandidate = {
  url: string;
  normalizedUrl: string;
  urlHash: string;
  lastmod: Date | null;
  sourceId: number;
  status?: UrlQueueStatus;
  error?: string | null;
  attempts?: number;
};

/** A queue row as the URL Que page lists it. */
export type QueueRow = {
  id: number;
  url: string;
  lastmod: Date | null;
  sourceId: number | null;
  sourceName: string | null;
  status: UrlQueueStatus;
  error: string | null;
  attempts: number;
  lastAttemptAt: Date | null;
};

export type QueueFilter = { sourceId?: number | null; status: UrlQueueStatus | "all"; search?: string | null; limit: number };

/** The claim on an origin: held (the caller may fetch now) or not yet (try again after `waitMs`). */
export type HostClaim = { held: true } | { held: false; waitMs: number };

export type CachedRobots = { status: number; body: string; fetchedAt: Date };

const INSERT_BATCH = 500;

// A QueueRow's columns: the row and its source's name.
const queueRowColumns = {
  id: urlQueue.id,
  url: urlQueue.url,
  lastmod: urlQueue.lastmod,
  sourceId: urlQueue.sourceId,
  sourceName: sources.name,
  status: urlQueue.status,
  error: urlQueue.error,
  attempts: urlQueue.attempts,
  lastAttemptAt: urlQueue.lastAttemptAt,
};

// Escapes LIKE's wildcards so 'Search URL' is a plain substring match.

/** Data access of the crawler: per-origin politeness and robots.txt, the URL queue, discovery runs. */
export function crawlRepo(db: Db) {
  // One request at a time per origin, across every process: the origin is leased for it.
  const hostLeases = leasesOf<typeof crawlHosts, string>(db, crawlHosts, crawlHosts.origin);
  return {
    /**
     * Takes an origin for one request when nobody holds it, its next slot has come and it is not
     * paused; otherwise says how long to wait. The database clock decides, so every process agrees.
     */
    async claimHost(origin: string, leaseMs: number): Promise<HostClaim> {
      await db.insert(crawlHosts).values({ origin }).onConflictDoNothing();
      const claimed = await hostLeases.claim({
        where: [
          eq(crawlHosts.origin, origin),
          or(isNull(crawlHosts.nextFetchAt), lte(crawlHosts.nextFetchAt, sql`now()`))!,
          or(isNull(crawlHosts.pausedUntil), lte(crawlHosts.pausedUntil, sql`now()`))!,
        ],
        now: sql`now()`,
        until: sql`now() + ${`${leaseMs} milliseconds`}::interval`,
        set: { updatedAt: sql`now()` },
      });
      if (claimed.length > 0) return { held: true };
      const [row] = await db
        .select({
          waitMs: sql<number>`greatest(0, extract(epoch from (greatest(
            coalesce(${crawlHosts.leaseUntil}, now()), coalesce(${crawlHosts.nextFetchAt}, now()), coalesce(${crawlHosts.pausedUntil}, now())
          ) - now())) * 1000)::float8`,
        })
        .from(crawlHosts)
        .where(eq(crawlHosts.origin, origin));
      return { held: false, waitMs: Number(row?.waitMs ?? 0) };
    },

    /** Extends the holds on origins still held to `leaseMs` from now; returns those renewed. */
    renewHosts: (origins: string[], leaseMs: number) => hostLeases.renew(origins, sql`now() + ${`${leaseMs} milliseconds`}::interval`),

    /** Gives an origin back: the next request may start `delayMs` after now. */
    async releaseHost(origin: string, delayMs: number): Promise<void> {
      await hostLeases.release([origin], { nextFetchAt: sql`now() + ${`${delayMs} milliseconds`}::interval`, updatedAt: sql`now()` });
    },

    /** Pauses an origin (a 429 or 503 with Retry-After) for every process. */
    async pauseHost(origin: string, forMs: number): Promise<void> {
      await db
        .update(crawlHosts)
        .set({ pausedUntil: sql`now() + ${`${forMs} milliseconds`}::interval`, updatedAt: sql`now()` })
        .where(eq(crawlHosts.origin, origin));
    },

    async readRobots(origin: string): Promise<CachedRobots | null> {
      const [row] = await db
        .select({ status: crawlHosts.robotsStatus, body: crawlHosts.robotsBody, fetchedAt: crawlHosts.robotsFetchedAt })
        .from(crawlHosts)
        .where(eq(crawlHosts.origin, origin));
      if (!row || row.status === null || row.fetchedAt === null) return null;
      return { status: row.status, body: row.body ?? "", fetchedAt: row.fetchedAt };
    },

    async storeRobots(origin: string, robots: { status: number; body: string; fetchedAt: Date }): Promise<void> {
      await db
        .insert(crawlHosts)
        .values({ origin, robotsStatus: robots.status, robotsBody: robots.body, robotsFetchedAt: robots.fetchedAt })
        .onConflictDoUpdate({
          target: crawlHosts.origin,
          set: { robotsStatus: robots.status, robotsBody: robots.body, robotsFetchedAt: robots.fetchedAt, updatedAt: sql`now()` },
        });
    },

    /** Which of these URL hashes are known already: queued (any status), a story, or rejected. */
    async knownUrlHashes(hashes: string[]): Promise<Set<string>> {
      const known = new Set<string>();
      for (let i = 0; i < hashes.length; i += INSERT_BATCH) {
        const batch = hashes.slice(i, i + INSERT_BATCH);
        const rows = await db
          .select({ h: urlQueue.urlHash })
          .from(urlQueue)
          .where(inArray(urlQueue.urlHash, batch))
          .unionAll(db.select({ h: stories.urlHash }).from(stories).where(inArray(stories.urlHash, batch)))
          .unionAll(db.select({ h: rejectedStories.urlHash }).from(rejectedStories).where(inArray(rejectedStories.urlHash, batch)));
        for (const row of rows) known.add(row.h);
      }
      return known;
    },

    /** Queues new URLs; a URL another run queued meanwhile is skipped. Returns how many were queued. */
    async enqueue(candidates: QueueCandidate[]): Promise<number> {
      let queued = 0;
      for (let i = 0; i < candidates.length; i += INSERT_BATCH) {
        const rows = await db
          .insert(urlQueue)
          .values(candidates.slice(i, i + INSERT_BATCH))
          .onConflictDoNothing()
          .returning({ id: urlQueue.id });
        queued += rows.length;
      }
      return queued;
    },

    /** The URL Que list, newest lastmod first (undated last), with each row's source name. */
    async list(filter: QueueFilter): Promise<QueueRow[]> {
      const conditions: SQL[] = [];
      if (filter.status !== "all") conditions.push(eq(urlQueue.status, filter.status));
      if (filter.sourceId) conditions.push(eq(urlQueue.sourceId, filter.sourceId));
      const search = filter.search?.trim();
      if (search) conditions.push(ilike(urlQueue.url, containsPattern(search)));
      return db
        .select(queueRowColumns)
        .from(urlQueue)
        .leftJoin(sources, eq(sources.id, urlQueue.sourceId))
        .where(conditions.length ? and(...conditions) : undefined)
        .orderBy(sql`${urlQueue.lastmod} DESC NULLS LAST`, sql`${urlQueue.id} DESC NULLS LAST`)
        .limit(filter.limit);
    },

    async findByIds(ids: number[]): Promise<QueueRow[]> {
      if (ids.length === 0) return [];
      return db
        .select(queueRowColumns)
        .from(urlQueue)
        .leftJoin(sources, eq(sources.id, urlQueue.sourceId))
        .where(inArray(urlQueue.id, ids));
    },

    /** The newest queued rows of a source (autoScrape). */
    async newestQueuedIds(sourceId: number, limit: number): Promise<number[]> {
      const rows = await db
        .select({ id: urlQueue.id })
        .from(urlQueue)
        .where(and(eq(urlQueue.sourceId, sourceId), eq(urlQueue.status, "queued")))
        .orderBy(sql`${urlQueue.lastmod} DESC NULLS LAST`, sql`${urlQueue.id} DESC NULLS LAST`)
        .limit(limit);
      return rows.map((r) => r.id);
    },

    async markScraped(ids: number[], at: Date): Promise<void> {
      if (ids.length === 0) return;
      await db.update(urlQueue).set({ status: "scraped", error: null, lastAttemptAt: at, updatedAt: at }).where(inArray(urlQueue.id, ids));
    },

    /**
     * Counts a failed attempt: the row stays queued with `error`, or becomes failed with
     * `finalError` once it has failed `maxAttempts` times.
     */
    async markAttemptFailed(id: number, input: { error: string; finalError: string; maxAttempts: number; at: Date }): Promise<UrlQueueStatus> {
      const [row] = await db
        .update(urlQueue)
        .set({
          attempts: sql`${urlQueue.attempts} + 1`,
          status: sql`CASE WHEN ${urlQueue.attempts} + 1 >= ${input.maxAttempts} THEN 'failed'::url_queue_status ELSE 'queued'::url_queue_status END`,
          error: sql`CASE WHEN ${urlQueue.attempts} + 1 >= ${input.maxAttempts} THEN ${input.finalError} ELSE ${input.error} END`,
          lastAttemptAt: input.at,
          updatedAt: input.at,
        })
        .where(eq(urlQueue.id, id))
        .returning({ status: urlQueue.status });
      return row?.status ?? "queued";
    },

    /** Removes rows; returns how many there were. */
    async remove(ids: number[]): Promise<number> {
      if (ids.length === 0) return 0;
      const rows = await db.delete(urlQueue).where(inArray(urlQueue.id, ids)).returning({ id: urlQueue.id });
      return rows.length;
    },

    /**
     * Rejects rows: their normalised URLs go into rejected_stories (already rejected ones are kept
     * as they are) and the rows leave the queue, in one transaction. Returns how many rows left.
     */
    async reject(
      rows: { id: number; url: string; normalizedUrl: string; urlHash: string; contentHash: string; sourceId: number | null }[],
      details: { rejectedBy: string | null; at: Date },
    ): Promise<number> {
      if (rows.length === 0) return 0;
      return db.transaction(async (tx) => {
        await tx
          .insert(rejectedStories)
          .values(
            rows.map((row) => ({
              sourceId: row.sourceId,
              title: row.url,
              originalUrl: row.url,
              normalizedUrl: row.normalizedUrl,
              urlHash: row.urlHash,
              contentHash: row.contentHash,
              rejectionReason: "manual_rejection",
              rejectionDetails: {
                // The spec's shape of a manual rejection; `from` says it was rejected as a queued URL, not as a story.
                rejection_method: "admin_manual",
                from: "url_queue",
                original_story_id: null,
                rejected_by_admin: true,
                rejected_at: details.at.toISOString(),
                rejected_by: details.rejectedBy,
              },
              rejectedAt: details.at,
            })),
          )
          .onConflictDoNothing();
        const removed = await tx
          .delete(urlQueue)
          .where(inArray(urlQueue.id, rows.map((r) => r.id)))
          .returning({ id: urlQueue.id });
        return removed.length;
      });
    },

    /** Identity columns of rows (for rejecting them). */
    async identities(ids: number[]) {
      if (ids.length === 0) return [];
      return db
        .select({ id: urlQueue.id, url: urlQueue.url, normalizedUrl: urlQueue.normalizedUrl, urlHash: urlQueue.urlHash, sourceId: urlQueue.sourceId })
        .from(urlQueue)
        .where(inArray(urlQueue.id, ids));
    },

    /** Queued rows per source, for the source cards. */
    async queuedCounts(): Promise<Map<number, number>> {
      const rows = await db
        .select({ sourceId: urlQueue.sourceId, n: sql<number>`count(*)::int` })
        .from(urlQueue)
        .where(eq(urlQueue.status, "queued"))
        .groupBy(urlQueue.sourceId);
      return new Map(rows.filter((r) => r.sourceId !== null).map((r) => [r.sourceId as number, Number(r.n)]));
    },

    /**
     * Takes web_scraping sources for one discovery runner: every active one ("all"), those due, or the
     * ones named. A lease marks them taken so another runner skips them; it expires by itself.
     */
    async claimSources(input: ClaimSourcesInput): Promise<CrawlSourceRow[]> {
      const conditions: SQL[] = [eq(sources.sourceType, "web_scraping")];
      // A source named on purpose is discovered even when inactive; the schedule skips inactive ones.
      if (!input.sourceIds) conditions.push(ne(sources.status, "inactive"));
      return sourceLeases(db).claim(claimOfSources(conditions, input));
    },

    /** Writes a discovery run's outcome on its source and releases the lease. */
    async finishDiscovery(
      sourceId: number,
      input: {
        stats: DiscoveryStats;
        status: "active" | "inactive" | "error";
        consecutiveErrors: number;
        lastError: string | null;
        lastFetchedAt: Date;
        lastSuccessAt?: Date;
        nextCheckAt: Date;
      },
    ): Promise<void> {
      const { stats, ...state } = input;
      await db
        .update(sources)
        .set({ ...state, lastDiscovery: stats, leaseUntil: null, updatedAt: input.lastFetchedAt })
        .where(eq(sources.id, sourceId));
    },

    releaseSources: (sourceIds: number[]) => sourceLeases(db).release(sourceIds),
    /** Keeps the sources a discovery run still holds leased; returns those renewed. */
    renewSources: (sourceIds: number[], leaseUntil: Date) => sourceLeases(db).renew(sourceIds, leaseUntil),
  };
}
export type CrawlRepo = ReturnType<typeof crawlRepo>;
