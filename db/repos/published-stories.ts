import { desc, eq } from "drizzle-orm";
import type { Db } from "../client";
import { categories, sources, stories } from "../schema";

// What every read of the public site shares: only published stories, the columns a list shows, and
// the newest-first order.

export const withRelations = {
  story: stories,
  categoryName: categories.name,
  categorySlug: categories.slug,
  sourceName: sources.name,
};

export const published = eq(stories.status, "published");

/**
 * What a list of stories on a public page shows of each (StoryForPublic) and its category: not its
 * content, URLs kept for deduplication or image state. A page of 20 stories then reads 20 short rows.
 */
export const forList = {
  id: stories.id,
  title: stories.title,
  summary: stories.summary,
  imageUrl: stories.imageUrl,
  originalUrl: stories.originalUrl,
  sourceUrl: stories.sourceUrl,
  slug: stories.slug,
  publishDate: stories.publishDate,
  isFeatured: stories.isFeatured,
  categoryId: stories.categoryId,
  categoryName: categories.name,
  categorySlug: categories.slug,
  sourceName: sources.name,
};
/** A story as a public list shows it (the columns of forList; category and source may be missing). */
export type ListedStory = {
  id: number;
  title: string;
  summary: string | null;
  imageUrl: string | null;
  originalUrl: string | null;
  sourceUrl: string | null;
  slug: string;
  publishDate: Date | null;
  isFeatured: boolean | null;
  categoryId: number | null;
  categoryName: string | null;
  categorySlug: string | null;
  sourceName: string | null;
};

/** Newest first: by publish date, then id. */
export const newestFirst = [desc(stories.publishDate), desc(stories.id)] as const;

/** Stories with the columns a list shows, their category and source joined. */
export const selectListed = (db: Db) =>
  db.select(forList).from(stories).leftJoin(categories, eq(categories.id, stories.categoryId)).leftJoin(sources, eq(sources.id, stories.sourceId));
