import { and, asc, count, desc, eq, gt, gte, isNull, sql } from "drizzle-orm";
import type { Db } from "../client";
import { categories, rejectedStories, sources, stories, triageModels } from "../schema";

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

export type TriageModelKind = "ranking" | "category";
export type TriageModelRow = typeof triageModels.$inferSelect;

/** A decision of the desk, with the text it was made on: what the ranking learns from. */
export type DecisionRow = { title: string; summary: string | null; sourceId: number | null; url: string | null; published: boolean };
/** A published story with its category: what the category suggestion learns from. */
export type CategorisedRow = { title: string; summary: string | null; sourceId: number | null; url: string | null; categorySlug: string };
/** A pending story as the models read it. */
export type PendingForTriage = { id: number; title: string; summary: string | null; sourceId: number | null; url: string | null };

/**
 * Only the desk's own rejections of a story teach the ranking: a URL rejected from the URL Que or by a
 * filter says nothing of a story's text, and a duplicate was rejected for its copy's sake, not its own.
 */
const DESK_REJECTION = sql`${rejectedStories.rejectionReason} = 'manual_rejection' AND ${rejectedStories.rejectionDetails}->>'rejection_method' = 'admin_manual' AND ${rejectedStories.rejectionDetails}->>'original_story_id' IS NOT NULL`;

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

/** Data access of editorial triage: the models and the scores, same-story groups and each source's yield. */
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

    /** How many decisions the desk has made: published stories, and stories it rejected itself. */
    async decisionCounts(): Promise<{ published: number; rejected: number }> {
      const [[published], [rejected]] = await Promise.all([
        db.select({ n: count() }).from(stories).where(eq(stories.status, "published")),
        db.select({ n: count() }).from(rejectedStories).where(DESK_REJECTION),
      ]);
      return { published: published?.n ?? 0, rejected: rejected?.n ?? 0 };
    },

    /** Decisions made after a moment: stories published since, and stories the desk rejected since. */
    async decisionsSince(at: Date): Promise<{ published: number; rejected: number }> {
      const [[published], [rejected]] = await Promise.all([
        db.select({ n: count() }).from(stories).where(and(eq(stories.status, "published"), gt(stories.publishDate, at))),
        db.select({ n: count() }).from(rejectedStories).where(and(DESK_REJECTION, gt(rejectedStories.rejectedAt, at))),
      ]);
      return { published: published?.n ?? 0, rejected: rejected?.n ?? 0 };
    },

    /** The newest decisions, at most `limit` of each kind, newest first. */
    async decisions(limit: number): Promise<DecisionRow[]> {
      const [published, rejected] = await Promise.all([
        db
          .select({ title: stories.title, summary: stories.summary, sourceId: stories.sourceId, url: sql<string | null>`coalesce(${stories.originalUrl}, ${stories.sourceUrl})` })
          .from(stories)
          .where(eq(stories.status, "published"))
          .orderBy(desc(stories.id))
          .limit(limit),
        db
          .select({ title: rejectedStories.title, summary: rejectedStories.summary, sourceId: rejectedStories.sourceId, url: rejectedStories.originalUrl })
          .from(rejectedStories)
          .where(DESK_REJECTION)
          .orderBy(desc(rejectedStories.id))
          .limit(limit),
      ]);
      return [...published.map((row) => ({ ...row, published: true })), ...rejected.map((row) => ({ ...row, published: false }))];
    },

    /** The newest published stories that have a category, at most `limit`. */
    async categorised(limit: number): Promise<CategorisedRow[]> {
      return db
        .select({
          title: stories.title,
          summary: stories.summary,
          sourceId: stories.sourceId,
          url: sql<string | null>`coalesce(${stories.originalUrl}, ${stories.sourceUrl})`,
          categorySlug: categories.slug,
        })
        .from(stories)
        .innerJoin(categories, eq(categories.id, stories.categoryId))
        .where(eq(stories.status, "published"))
        .orderBy(desc(stories.id))
        .limit(limit);
    },

    /** The model of a kind in use: the newest one. */
    async latest(kind: TriageModelKind): Promise<TriageModelRow | null> {
      const [row] = await db.select().from(triageModels).where(eq(triageModels.kind, kind)).orderBy(desc(triageModels.trainedAt), desc(triageModels.id)).limit(1);
      return row ?? null;
    },

    /** When and on how many decisions the model of a kind in use was trained, without its (large) body. */
    async latestInfo(kind: TriageModelKind): Promise<Omit<TriageModelRow, "model"> | null> {
      const [row] = await db
        .select({ id: triageModels.id, kind: triageModels.kind, trainedAt: triageModels.trainedAt, published: triageModels.published, rejected: triageModels.rejected })
        .from(triageModels)
        .where(eq(triageModels.kind, kind))
        .orderBy(desc(triageModels.trainedAt), desc(triageModels.id))
        .limit(1);
      return row ?? null;
    },

    /** Keeps a newly trained model, and drops all but the newest few of its kind. */
    async save(kind: TriageModelKind, trained: { published: number; rejected: number; model: unknown; at: Date }): Promise<TriageModelRow> {
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(triageModels).values({ kind, trainedAt: trained.at, published: trained.published, rejected: trained.rejected, model: trained.model }).returning();
        await tx.execute(sql`
          DELETE FROM ${triageModels} WHERE ${triageModels.kind} = ${kind} AND ${triageModels.id} NOT IN (
            SELECT ${triageModels.id} FROM ${triageModels} WHERE ${triageModels.kind} = ${kind} ORDER BY ${triageModels.trainedAt} DESC, ${triageModels.id} DESC LIMIT 3)`);
        return row!;
      });
    },

    /**
     * One page of pending stories to score, by id: every one (`all`), or only those not scored yet.
     * Pages follow `afterId`, so stories coming in meanwhile are not missed or read twice.
     */
    async pendingPage(input: { afterId: number; limit: number; all: boolean }): Promise<PendingForTriage[]> {
      return db
        .select({ id: stories.id, title: stories.title, summary: stories.summary, sourceId: stories.sourceId, url: sql<string | null>`coalesce(${stories.originalUrl}, ${stories.sourceUrl})` })
        .from(stories)
        .where(and(eq(stories.status, "pending"), gt(stories.id, input.afterId), input.all ? undefined : isNull(stories.triageScore)))
        .orderBy(stories.id)
        .limit(input.limit);
    },

    /** The highest id of a pending story (0 when none): stories came in since a pass that saw a lower one. */
    async newestPendingId(): Promise<number> {
      const [row] = await db.select({ id: sql<number | null>`max(${stories.id})` }).from(stories).where(eq(stories.status, "pending"));
      return Number(row?.id ?? 0);
    },

    /** One story as the models read it, with its status and its source's name. */
    async storyForTriage(id: number): Promise<(PendingForTriage & { status: string; sourceName: string | null }) | null> {
      const [row] = await db
        .select({
          id: stories.id,
          title: stories.title,
          summary: stories.summary,
          sourceId: stories.sourceId,
          url: sql<string | null>`coalesce(${stories.originalUrl}, ${stories.sourceUrl})`,
          status: stories.status,
          sourceName: sources.name,
        })
        .from(stories)
        .leftJoin(sources, eq(sources.id, stories.sourceId))
        .where(eq(stories.id, id));
      return row ?? null;
    },

    /** How many pending stories there are (`all`), or how many have no score yet. */
    async pendingCount(input: { all: boolean }): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(stories)
        .where(and(eq(stories.status, "pending"), input.all ? undefined : isNull(stories.triageScore)));
      return row?.n ?? 0;
    },

    /** Writes the scores and suggestions of a page of pending stories in one statement. */
    async writeScores(rows: { id: number; score: number | null; categoryId: number | null; confidence: number | null }[]): Promise<void> {
      if (rows.length === 0) return;
      await db.execute(sql`
        UPDATE ${stories} SET
          triage_score = v.score,
          suggested_category_id = v.category_id,
          suggested_category_confidence = v.confidence
        FROM unnest(
          ${sql.param(rows.map((r) => r.id))}::int[],
          ${sql.param(rows.map((r) => r.score))}::real[],
          ${sql.param(rows.map((r) => r.categoryId))}::int[],
          ${sql.param(rows.map((r) => r.confidence))}::real[]
        ) AS v(id, score, category_id, confidence)
        WHERE ${stories.id} = v.id AND ${stories.status} = 'pending'`);
    },

    /** Category ids by slug, for turning a suggestion into the publish control's choice. */
    async categoryIdsBySlug(): Promise<Map<string, { id: number; name: string }>> {
      const rows = await db.select({ id: categories.id, slug: categories.slug, name: categories.name }).from(categories);
      return new Map(rows.map((row) => [row.slug, { id: row.id, name: row.name }]));
    },

    /**
     * The Pending list as the triage command prints it: most likely first (newest first when
     * `byScore` is false), with each story's suggested category and the size of its same-story group.
     */
    async pendingTriage(input: { limit: number; sourceId: number | null; byScore: boolean }) {
      const groupSize = sql<number | null>`CASE WHEN ${stories.sameStoryGroup} IS NULL THEN NULL ELSE (
        SELECT count(*)::int FROM ${stories} AS member WHERE member.status = 'pending' AND member.same_story_group = ${stories.sameStoryGroup})
        + (SELECT count(*)::int FROM ${stories} AS lead WHERE lead.id = ${stories.sameStoryGroup} AND lead.status = 'published') END`;
      return db
        .select({
          id: stories.id,
          title: stories.title,
          score: stories.triageScore,
          categorySlug: categories.slug,
          categoryName: categories.name,
          confidence: stories.suggestedCategoryConfidence,
          groupId: stories.sameStoryGroup,
          groupSize,
        })
        .from(stories)
        .leftJoin(categories, eq(categories.id, stories.suggestedCategoryId))
        .where(and(eq(stories.status, "pending"), input.sourceId === null ? undefined : eq(stories.sourceId, input.sourceId)))
        .orderBy(...(input.byScore ? [sql`${stories.triageScore} DESC NULLS LAST`, desc(stories.id)] : [desc(stories.createdAt), desc(stories.id)]))
        .limit(input.limit);
    },
  };
}
export type TriageRepo = ReturnType<typeof triageRepo>;
