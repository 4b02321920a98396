import { and, asc, between, desc, eq, gt, ilike, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../client";
import { insertAudit, type AuditRecord } from "./audit.repo";
import { feedProcessingLog, rejectedStories, scrapedCandidates, sources, stories } from "../schema";
import { containsPattern } from "~/lib/like-pattern";

export type SourceRow = typeof sources.$inferSelect;
export type NewSource = typeof sources.$inferInsert;

/** The fields an editor sets in the source form (plus fetch state the form may reset). */
export type SourcePatch = Partial<Omit<NewSource, "id" | "createdAt">>;

/** The steps of a source delete, in the order they run. */
export const SOURCE_DELETE_STEPS = ["feed processing logs", "scraped candidates", "rejected stories", "stories", "source"] as const;
export type SourceDeleteStep = (typeof SOURCE_DELETE_STEPS)[number];

export type SourceDeleteResult =
  | { deleted: true; counts: Record<SourceDeleteStep, number> }
  | { deleted: false; reason: "not-found" }
  | { deleted: false; reason: "step-failed"; step: SourceDeleteStep; error: unknown };

type Audit = AuditRecord;

class StepFailed extends Error {
  constructor(
    readonly step: SourceDeleteStep,
    cause: unknown,
  ) {
    super(`step ${step} failed`, { cause });
  }
}

class NotFound extends Error {}

export function sourcesRepo(db: Db) {
  const audit = (tx: Db, sourceId: number, entry: Audit) => insertAudit(tx, "source", sourceId, entry);

  return {
    async findByName(name: string): Promise<SourceRow | null> {
      const [row] = await db.select().from(sources).where(eq(sources.name, name)).limit(1);
      return row ?? null;
    },

    async findById(id: number): Promise<SourceRow | null> {
      const [row] = await db.select().from(sources).where(eq(sources.id, id)).limit(1);
      return row ?? null;
    },

    /** Active RSS sources: what the dashboard calls 'RSS feeds monitored'. */
    async countActiveRss(): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(sources)
        .where(and(eq(sources.status, "active"), eq(sources.sourceType, "rss")));
      return row?.n ?? 0;
    },

    async insert(row: NewSource): Promise<SourceRow> {
      const [created] = await db.insert(sources).values(row).returning();
      if (!created) throw new Error("insert into sources returned no row");
      return created;
    },

    /** Every source, newest first, optionally whose name contains a text (case-insensitive). */
    list(filter: { search: string }): Promise<SourceRow[]> {
      const search = filter.search.trim();
      return db
        .select()
        .from(sources)
        .where(search ? ilike(sources.name, containsPattern(search)) : undefined)
        .orderBy(desc(sources.createdAt), desc(sources.id));
    },

    /**
     * Sources fetched (or whose discovery ran) between two moments whose run failed: their fetch
     * state says so (a failed run counts one more error in a row), by name.
     */
    listFetchFailures(run: { from: Date; to: Date }): Promise<{ id: number; name: string; lastError: string | null; consecutiveErrors: number }[]> {
      return db
        .select({ id: sources.id, name: sources.name, lastError: sources.lastError, consecutiveErrors: sources.consecutiveErrors })
        .from(sources)
        .where(and(between(sources.lastFetchedAt, run.from, run.to), gt(sources.consecutiveErrors, 0)))
        .orderBy(asc(sources.name), asc(sources.id));
    },

    /** Every source's id and name, by name (for pickers). */
    listNames(): Promise<{ id: number; name: string }[]> {
      return db.select({ id: sources.id, name: sources.name }).from(sources).orderBy(asc(sources.name), asc(sources.id));
    },

    /** Sources that have a feed URL, by name (OPML export, duplicate checks). */
    listWithFeed(): Promise<{ id: number; name: string; rssFeedUrl: string; websiteUrl: string | null }[]> {
      return db
        .select({ id: sources.id, name: sources.name, rssFeedUrl: sql<string>`${sources.rssFeedUrl}`, websiteUrl: sources.websiteUrl })
        .from(sources)
        .where(isNotNull(sources.rssFeedUrl))
        .orderBy(asc(sources.name), asc(sources.id));
    },

    /** Adds a source with its audit entry. */
    async create(row: NewSource, entry: Audit): Promise<SourceRow> {
      return db.transaction(async (tx) => {
        const [created] = await tx.insert(sources).values(row).returning();
        if (!created) throw new Error("insert into sources returned no row");
        await audit(tx, created.id, entry);
        return created;
      });
    },

    /** Adds several sources at once, each with its audit entry; all or none. */
    async createMany(rows: NewSource[], entry: Audit): Promise<SourceRow[]> {
      if (rows.length === 0) return [];
      return db.transaction(async (tx) => {
        const created = await tx.insert(sources).values(rows).returning();
        for (const row of created) await audit(tx, row.id, entry);
        return created;
      });
    },

    /** Changes a source with its audit entry; null when it no longer exists. */
    async update(id: number, patch: SourcePatch, entry: Audit): Promise<SourceRow | null> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(sources)
          .set({ ...patch, updatedAt: new Date() })
          .where(eq(sources.id, id))
          .returning();
        if (row) await audit(tx, id, entry);
        return row ?? null;
      });
    },

    /**
     * Deletes a source and everything gathered from it, in the spec's order, in one transaction:
     * feed_processing_log, scraped_candidates, rejected_stories, stories, then the source. The first
     * failing step rolls everything back and is named in the result.
     */
    async deleteWithData(id: number, entry: Audit): Promise<SourceDeleteResult> {
      try {
        return await db.transaction(async (tx) => {
          // Held to the end: an ingestion run cannot add a story to this source meanwhile.
          const [locked] = await tx.select({ id: sources.id, name: sources.name }).from(sources).where(eq(sources.id, id)).for("update");
          if (!locked) throw new NotFound();
          const run: Record<SourceDeleteStep, () => Promise<{ id: number }[]>> = {
            "feed processing logs": () => tx.delete(feedProcessingLog).where(eq(feedProcessingLog.sourceId, id)).returning({ id: feedProcessingLog.id }),
            "scraped candidates": () => tx.delete(scrapedCandidates).where(eq(scrapedCandidates.sourceId, id)).returning({ id: scrapedCandidates.id }),
            "rejected stories": () => tx.delete(rejectedStories).where(eq(rejectedStories.sourceId, id)).returning({ id: rejectedStories.id }),
            stories: () => tx.delete(stories).where(eq(stories.sourceId, id)).returning({ id: stories.id }),
            source: () => tx.delete(sources).where(eq(sources.id, id)).returning({ id: sources.id }),
          };
          const counts = {} as Record<SourceDeleteStep, number>;
          for (const step of SOURCE_DELETE_STEPS) {
            try {
              counts[step] = (await run[step]()).length;
            } catch (error) {
              throw new StepFailed(step, error);
            }
          }
          await audit(tx, id, { ...entry, details: { ...entry.details, name: locked.name, deleted: counts } });
          return { deleted: true as const, counts };
        });
      } catch (error) {
        if (error instanceof NotFound) return { deleted: false, reason: "not-found" };
        if (error instanceof StepFailed) return { deleted: false, reason: "step-failed", step: error.step, error: error.cause };
        throw error;
      }
    },
  };
}
export type SourcesRepo = ReturnType<typeof sourcesRepo>;
