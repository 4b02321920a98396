import { and, asc, eq, gt, gte, sql } from "drizzle-orm";
import type { Db } from "../client";
import { sources, stories } from "../schema";

/** How much of a summary grouping reads (the domain reads no more than this either). */
const SUMMARY_CHARS = 2_000;

/** A story as same-story grouping reads it: its text, source, link and time, and its group now. */
export type GroupingRow = {
  id: number;
  title: string;
  summary: string | null;
  sourceId: number | null;
  sourceName: string | null;
  link: string | null;
  /** When it was reported: the source's own date, else when it came in. */
  at: Date;
  sameStoryGroup: number | null;
  sameStoryReason: string | null;
};

/** A pending story's same-story group and why (both null: alone). */
export type SameStoryWrite = { id: number; group: number | null; reason: string | null };

/** One source's figures over a window: what it brought in and what became of it. */
export type SourceYieldRow = {
  id: number;
  name: string;
  status: "active" | "inactive" | "error";
  broughtIn: number;
  published: number;
  rejected: number;
  pending: number;
  lastPublishedAt: Date | null;
};

const groupingColumns = {
  id: stories.id,
  title: stories.title,
  summary: sql<string | null>`left(${stories.summary}, ${SUMMARY_CHARS})`,
  sourceId: stories.sourceId,
  sourceName: sources.name,
  link: sql<string | null>`coalesce(${stories.originalUrl}, ${stories.sourceUrl})`,
  at: sql<Date>`coalesce(${stories.sourcePublishedAt}, ${stories.createdAt})`.mapWith((value: string | Date) => new Date(value)),
  sameStoryGroup: stories.sameStoryGroup,
  sameStoryReason: stories.sameStoryReason,
};

/** Data access of editorial triage: same-story groups and each source's yield. */
export function triageRepo(db: Db) {
  return {
    /** Pending stories after `afterId`, by id, `limit` at a time (a whole inbox is read in pages). */
    pendingForGrouping(afterId: number, limit: number): Promise<GroupingRow[]> {
      return db
        .select(groupingColumns)
        .from(stories)
        .leftJoin(sources, eq(sources.id, stories.sourceId))
        .where(and(eq(stories.status, "pending"), gt(stories.id, afterId)))
        .orderBy(asc(stories.id))
        .limit(limit);
    },

    /** Stories published since `since`: what a pending story may turn out to repeat. */
    publishedForGrouping(since: Date): Promise<GroupingRow[]> {
      return db
        .select(groupingColumns)
        .from(stories)
        .leftJoin(sources, eq(sources.id, stories.sourceId))
        .where(and(eq(stories.status, "published"), gte(stories.publishDate, since)))
        .orderBy(asc(stories.id));
    },

    /**
     * Sets pending stories' same-story group and reason, in one statement; a story that is no longer
     * pending, or already says the same, is left alone. Returns how many rows changed.
     */
    async writeSameStory(rows: SameStoryWrite[]): Promise<number> {
      if (rows.length === 0) return 0;
      const result = await db.execute(sql`
        UPDATE ${stories} AS s
        SET same_story_group = v."group", same_story_reason = v.reason
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS v(id int, "group" int, reason text)
        WHERE s.id = v.id
          AND s.status = 'pending'
          AND (s.same_story_group IS DISTINCT FROM v."group" OR s.same_story_reason IS DISTINCT FROM v.reason)`);
      return (result as unknown as { rowCount: number | null }).rowCount ?? 0;
    },

    /**
     * Every source's yield since `since`, in one grouped query: the items it brought in (stories that
     * came in since then, and rejections of stories that did: a rejection's ingested_at, else its
     * rejected_at for rows made before that column), how many are published, rejected and still
     * pending, and the date of its last published story (ever). URLs rejected from the crawl queue
     * never reached Pending and are not counted. Sources without items get zeros.
     */
    async sourceYield(since: Date): Promise<SourceYieldRow[]> {
      const result = await db.execute(sql`
        WITH came_in AS (
          SELECT source_id, status::text AS outcome
          FROM stories
          WHERE source_id IS NOT NULL AND created_at >= ${since}
          UNION ALL
          SELECT source_id, 'rejected'
          FROM rejected_stories
          WHERE source_id IS NOT NULL
            AND coalesce(ingested_at, rejected_at) >= ${since}
            AND coalesce(rejection_details->>'from', '') <> 'url_queue'
        ), counts AS (
          SELECT source_id,
                 count(*)::int AS brought_in,
                 (count(*) FILTER (WHERE outcome = 'published'))::int AS published,
                 (count(*) FILTER (WHERE outcome = 'rejected'))::int AS rejected,
                 (count(*) FILTER (WHERE outcome = 'pending'))::int AS pending
          FROM came_in
          GROUP BY source_id
        ), last_published AS (
          SELECT source_id, max(publish_date) AS at
          FROM stories
          WHERE status = 'published' AND source_id IS NOT NULL
          GROUP BY source_id
        )
        SELECT s.id, s.name, s.status,
               coalesce(c.brought_in, 0) AS brought_in,
               coalesce(c.published, 0) AS published,
               coalesce(c.rejected, 0) AS rejected,
               coalesce(c.pending, 0) AS pending,
               lp.at AS last_published_at
        FROM ${sources} s
        LEFT JOIN counts c ON c.source_id = s.id
        LEFT JOIN last_published lp ON lp.source_id = s.id
        ORDER BY s.id`);
      const rows = (result as unknown as { rows: Record<string, unknown>[] }).rows;
      return rows.map((row) => ({
        id: Number(row.id),
        name: String(row.name),
        status: row.status as SourceYieldRow["status"],
        broughtIn: Number(row.brought_in),
        published: Number(row.published),
        rejected: Number(row.rejected),
        pending: Number(row.pending),
        lastPublishedAt: row.last_published_at === null || row.last_published_at === undefined ? null : new Date(row.last_published_at as string),
      }));
    },
  };
}
export type TriageRepo = ReturnType<typeof triageRepo>;
