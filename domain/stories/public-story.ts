import type { ListedStory } from "~/db/repos/published-stories";
import { httpUrlOrNull } from "~/lib/http-url";

/** What the public site knows of a story. */
export type PublicStory = {
  id: number;
  title: string;
  summary: string | null;
  imageUrl: string | null;
  sourceUrl: string;
  sourceName: string | null;
  category: string;
  categorySlug: string | null;
  slug: string;
  publishDate: string | null;
  /** When the source reported the story (ISO 8601), as it said; only a story's own page reads it, lists leave it null. */
  sourcePublishedAt: string | null;
  isFeatured: boolean;
};

/** A stored story as the public site reads it: what a public list reads of it (the repository's row). */
export type StoryForPublic = Omit<ListedStory, "categoryId"> & { sourcePublishedAt?: Date | null };

/** Maps a stored story to its public shape: link falls back original URL, source URL, then '#'. */
export function toPublicStory(story: StoryForPublic): PublicStory {
  return {
    id: story.id,
    title: story.title,
    summary: story.summary,
    imageUrl: blankToNull(story.imageUrl),
    // Only http(s) links leave the site: anything else (javascript:, data:) is treated as missing.
    sourceUrl: httpUrlOrNull(story.originalUrl) ?? httpUrlOrNull(story.sourceUrl) ?? "#",
    sourceName: story.sourceName,
    category: publicCategoryName(story.categoryName),
    categorySlug: story.categorySlug,
    slug: story.slug,
    publishDate: story.publishDate ? story.publishDate.toISOString() : null,
    sourcePublishedAt: story.sourcePublishedAt ? story.sourcePublishedAt.toISOString() : null,
    isFeatured: story.isFeatured ?? false,
  };
}

/** The category a story shows: its category's name, "Uncategorized" without one. */
export function publicCategoryName(categoryName: string | null): string {
  return blankToNull(categoryName) ?? "Uncategorized";
}

function blankToNull(value: string | null): string | null {
  return value === null || value.trim() === "" ? null : value;
}
