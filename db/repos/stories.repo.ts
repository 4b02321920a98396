import { and, asc, desc, eq, gte, ilike, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../client";
import { categories, rejectedStories, sources, stories } from "../schema";
import { containsPattern } from "~/lib/like-pattern";

export type StoryRow = typeof stories.$inferSelect;
export type NewStory = typeof stories.$inferInsert;
export type NewRejectedStory = typeof rejectedStories.$inferInsert;

/** A story with the names the public pages show beside it. */
export type StoryWithRelations = StoryRow & {
  categoryName: string | null;
  categorySlug: string | null;
  sourceName: string | null;
};

/** A story in the back office's list, with its category's and source's names. */
/** A story of the back office's list, with its category's and source's names and the category its source gives its stories. */
export type AdminListRow = StoryRow & { categoryName: string | null; sourceName: string | null; sourceCategoryId: number | null };
export type RejectedListRow = typeof rejectedStories.$inferSelect & { sourceName: string | null };

/**
 * What narrows the back office's list besides the status: text in the title or summary, a category
 * or a source (a number, or "none" for stories without one).
 */
export type AdminListFilter = { search: string; categoryId: number | "none" | null; sourceId: number | "none" | null };
/** The list's order: by date added (newest or oldest first), by source name (then newest first), or most likely to be published first (then newest). */
export type AdminListSort = "newest" | "oldest" | "source" | "likely";

/** A pending story grouped with others that report the same event, as its group's row lists it. */
export type SameStoryMemberRow = { id: number; group: number; title: string; sourceName: string | null; triageScore: number | null; reason: string | null; status: "published" | "pending" };

function adminConditions(filter: AdminListFilter): SQL[] {
  const conditions: SQL[] = [];
  if (filter.search) {
    const pattern = containsPattern(filter.search);
    conditions.push(or(ilike(stories.title, pattern), ilike(stories.summary, pattern)) as SQL);
  }
  if (filter.categoryId === "none") conditions.push(isNull(stories.categoryId));
  else if (filter.categoryId !== null) conditions.push(eq(stories.categoryId, filter.categoryId));
  if (filter.sourceId === "none") conditions.push(isNull(stories.sourceId));
  else if (filter.sourceId !== null) conditions.push(eq(stories.sourceId, filter.sourceId));
  return conditions;
}

// Rejected stories keep their title and source, not their summary or category.
function rejectedConditions(filter: AdminListFilter): SQL[] {
  const conditions: SQL[] = [];
  if (filter.search) conditions.push(ilike(rejectedStories.title, containsPattern(filter.search)));
  if (filter.sourceId === "none") conditions.push(isNull(rejectedStories.sourceId));
  else if (filter.sourceId !== null) conditions.push(eq(rejectedStories.sourceId, filter.sourceId));
  return conditions;
}

export function storiesRepo(db: Db) {
  return {
    /** One page of the back office's list of stories (not rejected ones), filtered and sorted. */
    async adminList(
      filter: AdminListFilter & { status: "all" | "published" | "pending"; sort: AdminListSort; limit: number; offset: number },
    ): Promise<{ stories: AdminListRow[]; total: number }> {
      const conditions = adminConditions(filter);
      if (filter.status !== "all") conditions.push(eq(stories.status, filter.status));
      const filtered = conditions.length ? and(...conditions) : undefined;
      // Pending stories that report one event take one row: the group's most likely (then first) story.
      // A row is left out when a story of its group ranks above it.
      const outranked = sql`EXISTS (
          SELECT 1 FROM ${stories} AS other WHERE other.status = 'pending' AND other.same_story_group = ${stories.sameStoryGroup}
            AND (coalesce(other.triage_score, -1) > coalesce(${stories.triageScore}, -1)
              OR (coalesce(other.triage_score, -1) = coalesce(${stories.triageScore}, -1) AND other.id < ${stories.id})))`;
      const collapse = filter.status === "pending";
      if (collapse) conditions.push(sql`(${stories.sameStoryGroup} IS NULL OR NOT ${outranked})`);
      const where = conditions.length ? and(...conditions) : undefined;
      const order =
        filter.sort === "oldest"
          ? [asc(stories.createdAt), asc(stories.id)]
          : filter.sort === "source"
            ? [sql`${sources.name} ASC NULLS LAST`, desc(stories.createdAt), desc(stories.id)]
            : filter.sort === "likely"
              ? [sql`${stories.triageScore} DESC NULLS LAST`, desc(stories.id)]
              : [desc(stories.createdAt), desc(stories.id)];
      const [rows, [total]] = await Promise.all([
        db
          .select({ story: stories, categoryName: categories.name, sourceName: sources.name, sourceCategoryId: sources.defaultCategoryId })
          .from(stories)
          .leftJoin(categories, eq(categories.id, stories.categoryId))
          .leftJoin(sources, eq(sources.id, stories.sourceId))
          .where(where)
          .orderBy(...order)
          .limit(filter.limit)
          .offset(filter.offset),
        // Counted as every matching row less the grouped ones outranked in their group: one count over
        // the rows and one over the grouped few, rather than the group test on each of 100,000 rows
        // (which PostgreSQL also estimates dear enough to compile with JIT, for most of a second).
        db
          .select({
            n: sql<number>`(SELECT count(*)::int FROM ${stories} WHERE ${filtered ?? sql`true`})
              - ${collapse ? sql`(SELECT count(*)::int FROM ${stories} WHERE ${filtered ?? sql`true`} AND ${stories.sameStoryGroup} IS NOT NULL AND ${outranked})` : sql`0`}`,
          })
          .from(sql`(SELECT 1) AS one`),
      ]);
      return { stories: rows.map(({ story, ...names }) => ({ ...story, ...names })), total: total?.n ?? 0 };
    },

    /** The stories of these same-story groups: their pending members and a published first story, most likely first. */
    async sameStoryMembers(groups: number[]): Promise<SameStoryMemberRow[]> {
      if (groups.length === 0) return [];
      const rows = await db
        .select({ id: stories.id, group: stories.sameStoryGroup, title: stories.title, sourceName: sources.name, triageScore: stories.triageScore, reason: stories.sameStoryReason, status: stories.status })
        .from(stories)
        .leftJoin(sources, eq(sources.id, stories.sourceId))
        .where(
          or(
            and(inArray(stories.sameStoryGroup, groups), eq(stories.status, "pending")),
            and(inArray(stories.id, groups), eq(stories.status, "published")),
          ),
        )
        .orderBy(sql`${stories.triageScore} DESC NULLS LAST`, asc(stories.id));
      return rows.map((row) => ({ ...row, group: row.group ?? row.id, status: row.status === "published" ? "published" : "pending" }));
    },

    /** One page of rejected stories, most recently rejected first (or oldest first, or by source). */
    async adminRejectedList(filter: AdminListFilter & { sort: AdminListSort; limit: number; offset: number }): Promise<{ stories: RejectedListRow[]; total: number }> {
      const conditions = rejectedConditions(filter);
      const where = conditions.length ? and(...conditions) : undefined;
      const order =
        filter.sort === "oldest"
          ? [asc(rejectedStories.rejectedAt), asc(rejectedStories.id)]
          : filter.sort === "source"
            ? [sql`${sources.name} ASC NULLS LAST`, desc(rejectedStories.rejectedAt), desc(rejectedStories.id)]
            : [desc(rejectedStories.rejectedAt), desc(rejectedStories.id)];
      const [rows, [total]] = await Promise.all([
        db
          .select({ rejected: rejectedStories, sourceName: sources.name })
          .from(rejectedStories)
          .leftJoin(sources, eq(sources.id, rejectedStories.sourceId))
          .where(where)
          .orderBy(...order)
          .limit(filter.limit)
          .offset(filter.offset),
        db.select({ n: sql<number>`count(*)::int` }).from(rejectedStories).where(where),
      ]);
      return { stories: rows.map(({ rejected, sourceName }) => ({ ...rejected, sourceName })), total: total?.n ?? 0 };
    },

    /**
     * How many stories each status filter of the back office's list would show with these other
     * filters: stories by status, and rejected ones (a category filter does not apply to those).
     */
    async adminCounts(filter: AdminListFilter): Promise<{ all: number; published: number; pending: number; rejected: number }> {
      const conditions = adminConditions(filter);
      const rejected = rejectedConditions(filter);
      const [byStatus, [rejectedCount]] = await Promise.all([
        db
          .select({ status: stories.status, n: sql<number>`count(*)::int` })
          .from(stories)
          .where(conditions.length ? and(...conditions) : undefined)
          .groupBy(stories.status),
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(rejectedStories)
          .where(rejected.length ? and(...rejected) : undefined),
      ]);
      const count = (status: string) => byStatus.find((row) => row.status === status)?.n ?? 0;
      const all = byStatus.reduce((sum, row) => sum + row.n, 0);
      return { all, published: count("published"), pending: count("pending"), rejected: rejectedCount?.n ?? 0 };
    },

    async countByStatus(): Promise<Record<StoryRow["status"], number>> {
      const rows = await db
        .select({ status: stories.status, n: sql<number>`count(*)::int` })
        .from(stories)
        .groupBy(stories.status);
      const counts = { published: 0, pending: 0, rejected: 0 };
      for (const row of rows) counts[row.status] = row.n;
      return counts;
    },

    async countCreatedSince(since: Date): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(stories).where(gte(stories.createdAt, since));
      return row?.n ?? 0;
    },

    /** Inserts stories whose URL hash is new; known URLs are skipped. Returns how many were added. */
    async insertMissing(rows: NewStory[]): Promise<number> {
      if (rows.length === 0) return 0;
      const inserted = await db
        .insert(stories)
        .values(rows)
        .onConflictDoNothing({ target: stories.urlHash })
        .returning({ id: stories.id });
      return inserted.length;
    },

    /** Records rejections whose normalised URL is new. Returns how many were added. */
    async insertMissingRejections(rows: NewRejectedStory[]): Promise<number> {
      if (rows.length === 0) return 0;
      const inserted = await db
        .insert(rejectedStories)
        .values(rows)
        .onConflictDoNothing({ target: rejectedStories.normalizedUrl })
        .returning({ id: rejectedStories.id });
      return inserted.length;
    },
  };
}
export type StoriesRepo = ReturnType<typeof storiesRepo>;
