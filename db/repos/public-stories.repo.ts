import { and, asc, eq, gt, gte, lte, ne, sql } from "drizzle-orm";
import type { Db } from "../client";
import { categories, categoryStoryCounts, sources, stories } from "../schema";
import type { CategoryRow } from "./categories.repo";
import type { StoryWithRelations } from "./stories.repo";
import { forList, newestFirst, published, selectListed as listed, withRelations, type ListedStory } from "./published-stories";
import { storySearch } from "./story-search";

// Every read of the public site. Each one filters on status = 'published' and is served by an index
// (see db/schema.ts); none of them loads more rows than the page shows. The search is story-search.ts.

type JoinedRow = { story: typeof stories.$inferSelect; categoryName: string | null; categorySlug: string | null; sourceName: string | null };

function flatten(rows: JoinedRow[]): StoryWithRelations[] {
  return rows.map(({ story, categoryName, categorySlug, sourceName }) => ({ ...story, categoryName, categorySlug, sourceName }));
}

/**
 * A story's place in its category's newest-first order: its publish date in microseconds since 1970
 * (the database's precision, a safe integer for any date from 1685 to 2255) and its id.
 */
export type CategoryPosition = { publishedMicros: number; id: number };

/** Where a category page starts: at a row number, or just older (`after`) or just newer (`before`) than a position. */
export type CategoryPageStart = { offset: number } | { after: CategoryPosition } | { before: CategoryPosition };
export type CategoryPageQuery = { limit: number } & CategoryPageStart;

/** A position's publish date as timestamptz text, to the microsecond (a Date keeps milliseconds only). */
function timestampOf(position: CategoryPosition): string {
  const micros = position.publishedMicros;
  if (!Number.isSafeInteger(micros)) throw new RangeError(`not a position: ${micros}`);
  const fraction = ((micros % 1000) + 1000) % 1000;
  const iso = new Date((micros - fraction) / 1000).toISOString();
  return `${iso.slice(0, -1)}${String(fraction).padStart(3, "0")}Z`;
}

export type CategoryCardRow = {
  id: number;
  name: string;
  slug: string;
  storyCount: number;
  sample: ListedStory;
};

export function publicStoriesRepo(db: Db) {
  const selectStories = () =>
    db
      .select(withRelations)
      .from(stories)
      .leftJoin(categories, eq(categories.id, stories.categoryId))
      .leftJoin(sources, eq(sources.id, stories.sourceId));
  const selectListed = () => listed(db);
  // The same rows with each story's position (publish_date to the microsecond, which a Date cannot carry).
  const selectPositionedStories = () =>
    db
      .select({ ...forList, micros: sql<string>`(extract(epoch from ${stories.publishDate}) * 1000000)::bigint::text` })
      .from(stories)
      .leftJoin(categories, eq(categories.id, stories.categoryId))
      .leftJoin(sources, eq(sources.id, stories.sourceId));

  // The reads of the home, category and story pages, prepared once: their SQL is not built again on
  // every call (about 0.3 ms a query on PGlite), and PostgreSQL plans each once per connection.
  const featuredQuery = selectListed()
    .where(and(published, eq(stories.isFeatured, true)))
    .orderBy(...newestFirst)
    .limit(1)
    .prepare("public_featured");
  // Each shown category's newest non-featured story (the category index, newest first, per category).
  const categoryCardsQuery = db
    .select({ ...forList, storyCount: categoryStoryCounts.published })
    .from(stories)
    .leftJoin(categories, eq(categories.id, stories.categoryId))
    .leftJoin(sources, eq(sources.id, stories.sourceId))
    .innerJoin(categoryStoryCounts, eq(categoryStoryCounts.categoryId, stories.categoryId))
    .where(
      sql`${stories.id} IN (
        SELECT (
          SELECT s.id FROM stories s
          WHERE s.status = 'published' AND NOT s.is_featured AND s.category_id = c.id
          ORDER BY s.publish_date DESC NULLS FIRST, s.id DESC NULLS FIRST
          LIMIT 1
        ) FROM categories c
        WHERE c.id = ANY(${sql.placeholder("categoryIds")}::int[])
      )`,
    )
    .prepare("public_category_cards");
  const categoryTotalQuery = db
    .select({ n: categoryStoryCounts.published })
    .from(categoryStoryCounts)
    .where(eq(categoryStoryCounts.categoryId, sql.placeholder("categoryId")))
    .prepare("public_category_total");
  const categoryPageQuery = selectPositionedStories()
    .where(and(published, eq(stories.categoryId, sql.placeholder("categoryId"))))
    .orderBy(...newestFirst)
    .limit(sql.placeholder("limit"))
    .offset(sql.placeholder("offset"))
    .prepare("public_category_page");
  const bySlugQuery = selectStories()
    .where(and(published, eq(stories.slug, sql.placeholder("slug"))))
    .limit(1)
    .prepare("public_story_by_slug");
  const relatedQuery = selectListed()
    .where(and(published, eq(stories.categoryId, sql.placeholder("categoryId")), ne(stories.id, sql.placeholder("excludeId"))))
    .orderBy(...newestFirst)
    .limit(sql.placeholder("limit"))
    .prepare("public_related");

  return {
    /** The newest featured published story, if any. */
    async featured(): Promise<ListedStory | null> {
      const rows = await featuredQuery.execute();
      return rows[0] ?? null;
    },

    /**
     * Of `shown` (categories in display order), those that have a non-featured published story: its
     * count and its newest such story, in one query. A category's count is its published stories,
     * featured included (the number its own page shows), kept by the database as stories change
     * (category_story_counts): no count over every story.
     */
    async categoryCards(shown: readonly Pick<CategoryRow, "id" | "name" | "slug">[]): Promise<CategoryCardRow[]> {
      if (shown.length === 0) return [];
      const rows = await categoryCardsQuery.execute({ categoryIds: shown.map((c) => c.id) });
      const sampleOf = new Map(rows.map(({ storyCount, ...sample }) => [sample.categoryId, { storyCount, sample }]));
      return shown.flatMap((c) => {
        const found = sampleOf.get(c.id);
        return found && found.storyCount > 0 ? [{ id: c.id, name: c.name, slug: c.slug, storyCount: found.storyCount, sample: found.sample }] : [];
      });
    },

    /** How many published stories a category has: kept by the database as stories change (category_story_counts). */
    async categoryTotal(categoryId: number): Promise<number> {
      const [row] = await categoryTotalQuery.execute({ categoryId });
      return row?.n ?? 0;
    },

    /**
     * One page of a category's published stories, newest first: from the `offset`th, or those just
     * older (`after`) or just newer (`before`) than a position (keyset: no row before the page is
     * walked, and stories published meanwhile do not shift it). With the positions of its first and
     * last story, for the links to the pages beside it.
     */
    async byCategory(categoryId: number, page: CategoryPageQuery) {
      const where = and(published, eq(stories.categoryId, categoryId));
      // Every read walks stories_published_category_idx in its order (backwards for `before`), the
      // row comparison being its index condition.
      const rows =
        "after" in page
          ? await selectPositionedStories()
              .where(and(where, sql`(${stories.publishDate}, ${stories.id}) < (${timestampOf(page.after)}::timestamptz, ${page.after.id}::int)`))
              .orderBy(...newestFirst)
              .limit(page.limit)
          : "before" in page
            ? (
                await selectPositionedStories()
                  .where(and(where, sql`(${stories.publishDate}, ${stories.id}) > (${timestampOf(page.before)}::timestamptz, ${page.before.id}::int)`))
                  .orderBy(asc(stories.publishDate), asc(stories.id))
                  .limit(page.limit)
              ).reverse()
            : await categoryPageQuery.execute({ categoryId, limit: page.limit, offset: page.offset });
      const positionOf = (row: (typeof rows)[number] | undefined): CategoryPosition | null =>
        row ? { publishedMicros: Number(row.micros), id: row.id } : null;
      return { stories: rows.map(({ micros: _micros, ...story }) => story), first: positionOf(rows[0]), last: positionOf(rows.at(-1)) };
    },

    /** A published story by its slug, with its category and source names. */
    async bySlug(slug: string): Promise<StoryWithRelations | null> {
      const rows = await bySlugQuery.execute({ slug });
      return flatten(rows)[0] ?? null;
    },

    /** The image URL of a published story by id (null when it has none); null for a story that is not published. */
    async imageOf(id: number): Promise<{ imageUrl: string | null } | null> {
      const [row] = await db.select({ imageUrl: stories.imageUrl }).from(stories).where(and(published, eq(stories.id, id))).limit(1);
      return row ?? null;
    },

    /** A published story's title and category name by id (what its share card draws); null for a story that is not published. */
    async cardOf(id: number): Promise<{ title: string; categoryName: string | null } | null> {
      const [row] = await db
        .select({ title: stories.title, categoryName: categories.name })
        .from(stories)
        .leftJoin(categories, eq(categories.id, stories.categoryId))
        .where(and(published, eq(stories.id, id)))
        .limit(1);
      return row ?? null;
    },

    /** Other published stories of a category, newest first. */
    async related(categoryId: number, excludeId: number, limit: number): Promise<ListedStory[]> {
      return relatedQuery.execute({ categoryId, excludeId, limit });
    },

    ...storySearch(db),

    /** Published stories for feeds and sitemaps, newest first, optionally since a date or in a category. */
    async latestForFeed(options: { limit: number; since?: Date; categoryId?: number }): Promise<StoryWithRelations[]> {
      const conditions = [published];
      if (options.since) conditions.push(gte(stories.publishDate, options.since));
      if (options.categoryId !== undefined) conditions.push(eq(stories.categoryId, options.categoryId));
      const rows = await selectStories()
        .where(and(...conditions))
        .orderBy(...newestFirst)
        .limit(options.limit);
      return flatten(rows);
    },

    /**
     * Slugs and last changes of the published stories with ids in (afterId, throughId], by id: a
     * range of the primary key, so a story's sitemap page is fixed by its id alone.
     */
    async sitemapRange(range: { afterId: number; throughId: number }): Promise<{ slug: string; updatedAt: Date }[]> {
      // One row of two JSON arrays rather than a row per story: for a range of 2,000 on PGlite at
      // 100,000 stories the rows took 9.5 ms to read, the arrays 3 ms. Times are whole milliseconds.
      const [row] = await db
        .select({
          slugs: sql<string | null>`json_agg(${stories.slug} ORDER BY ${stories.id})::text`,
          times: sql<string | null>`json_agg(floor(extract(epoch FROM ${stories.updatedAt}) * 1000)::bigint ORDER BY ${stories.id})::text`,
        })
        .from(stories)
        .where(and(published, gt(stories.id, range.afterId), lte(stories.id, range.throughId)));
      if (!row?.slugs || !row.times) return [];
      const slugs = JSON.parse(row.slugs) as string[];
      const times = JSON.parse(row.times) as number[];
      return slugs.map((slug, i) => ({ slug, updatedAt: new Date(times[i]!) }));
    },

    /**
     * The numbers n (from 1) of the id ranges ((n-1)*size, n*size] holding a published story, in
     * order: one probe of the primary key per range up to the highest id, which stops at the range's
     * first published story (grouping every published id would read them all). Only a range with no
     * published story reads all its rows.
     */
    async sitemapRanges(size: number): Promise<number[]> {
      const result = (await db.execute(sql`
        SELECT n FROM generate_series(1, (SELECT ((max(id) - 1) / ${size} + 1)::int FROM stories)) AS n
        WHERE EXISTS (
          SELECT 1 FROM stories WHERE status = 'published' AND id > (n - 1) * ${size}::int AND id <= n * ${size}::int
        )
        ORDER BY n`)) as unknown as { rows: { n: number | string }[] };
      return result.rows.map((row) => Number(row.n));
    },
  };
}
export type PublicStoriesRepo = ReturnType<typeof publicStoriesRepo>;
