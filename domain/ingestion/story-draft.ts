import type { PendingStoryDraft } from "~/db/repos/ingestion.repo";
import { storySlug } from "~/lib/slug";
import { truncateText } from "~/lib/html";

const MAX_TITLE = 300;
const MAX_SUMMARY = 2_000;

// Plain text on one line, cut at a word boundary with an ellipsis when longer.
const clip = (text: string, max: number) => truncateText(text.replace(/\s+/g, " ").trim(), max);

/** A story's slug, and the fallback with a piece of its URL hash for when the slug is taken. */
export function slugsFor(title: string, urlHash: string): { slug: string; altSlug: string } {
  const base = storySlug(title);
  return { slug: base, altSlug: `${base}-${urlHash.slice(0, 8)}` };
}

/** The pending story a found item becomes; a missing title falls back to the summary, then the URL. */
export function draftStory(input: {
  title: string | null;
  summary: string | null;
  contentHtml: string | null;
  imageUrl: string | null;
  originalUrl: string;
  normalizedUrl: string;
  urlHash: string;
  sourceId: number | null;
  /** The category the story starts in: its source's default, when the source names one. */
  categoryId: number | null;
  /** When the source says it published the item, already checked as plausible. */
  sourcePublishedAt: Date | null;
}): PendingStoryDraft {
  const summary = input.summary?.trim() ? clip(input.summary, MAX_SUMMARY) : null;
  const title = clip(input.title?.trim() || (summary ? clip(summary, 120) : "") || input.originalUrl, MAX_TITLE);
  return {
    title,
    summary,
    content: input.contentHtml?.trim() ? input.contentHtml : null,
    imageUrl: input.imageUrl,
    originalUrl: input.originalUrl,
    normalizedUrl: input.normalizedUrl,
    urlHash: input.urlHash,
    sourceId: input.sourceId,
    categoryId: input.categoryId,
    sourcePublishedAt: input.sourcePublishedAt,
    ...slugsFor(title, input.urlHash),
  };
}
