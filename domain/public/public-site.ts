import type { CategoriesRepo } from "~/db/repos/categories.repo";
import type { CategoryPageStart, CategoryPosition, PublicStoriesRepo } from "~/db/repos/public-stories.repo";
import { publicCategoryName, toPublicStory, type PublicStory } from "~/domain/stories/public-story";

export const PAGE_SIZE = 24;
export const RELATED_LIMIT = 6;
export const SUGGESTION_LIMIT = 5;
export const SUGGESTION_MIN_LENGTH = 3;
/**
 * Search counts matches up to this many, then says "1,000+" (42 pages): counting every match of a
 * common word would not scale. On PGlite with 100,000 stories, a word in a third of them ("cat") took
 * 131 ms counted to 10,000 and 20 ms counted to 1,000 (p50 of 12 calls, scratch script, busy machine).
 */
export const SEARCH_COUNT_CAP = 1_000;
/** How many recent titles the 'Did you mean' look-up reads words from. */
export const DID_YOU_MEAN_TITLES = 5_000;
/** The longest search query: longer ones are cut to this many characters before any work. */
export const SEARCH_MAX_LENGTH = 200;
/** The longest word 'Did you mean' looks up; longer words are left as typed. */
export const SEARCH_MAX_WORD_LENGTH = 40;

/** A query as search reads it: trimmed, and cut to SEARCH_MAX_LENGTH characters (never inside a character). */
export function searchQueryFrom(rawQuery: string | null): string {
  const query = (rawQuery ?? "").trim();
  if (query.length <= SEARCH_MAX_LENGTH) return query;
  return Array.from(query.slice(0, SEARCH_MAX_LENGTH * 2)).slice(0, SEARCH_MAX_LENGTH).join("").trim();
}

export type PublicDeps = { publicStories: PublicStoriesRepo; categories: Pick<CategoriesRepo, "listAll" | "findBySlug"> };

export type PublicCategory = { id: number; name: string; slug: string };
export type CategoryCard = { name: string; slug: string; storyCount: number; sample: PublicStory };
export type Paged<T> = { items: T[]; total: number; page: number; pageCount: number; pageSize: number; totalIsCapped?: boolean };

/** The page number from a query value: a positive integer, 1 for anything else. */
export function parsePage(value: string | null | undefined): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= 100_000 ? n : 1;
}

function paged<T>(items: T[], total: number, page: number): Paged<T> {
  return { items, total, page, pageSize: PAGE_SIZE, pageCount: Math.max(1, Math.ceil(total / PAGE_SIZE)) };
}

/** Categories in display order, for the header's category bar. */
export async function listCategories(deps: Pick<PublicDeps, "categories">): Promise<PublicCategory[]> {
  return (await deps.categories.listAll()).map(({ id, name, slug }) => ({ id, name, slug }));
}

/** The home page: the featured story and one card per category with a non-featured story. */
export async function getHome(deps: PublicDeps): Promise<{ featured: PublicStory | null; cards: CategoryCard[] }> {
  const [featured, cards] = await Promise.all([deps.publicStories.featured(), deps.categories.listAll().then((all) => deps.publicStories.categoryCards(all))]);
  return {
    featured: featured ? toPublicStory(featured) : null,
    cards: cards.map((c) => ({ name: c.name, slug: c.slug, storyCount: c.storyCount, sample: toPublicStory(c.sample) })),
  };
}

/** The cursor of a story's place in its category, for a page link: short and URL-safe ("<micros>.<id>" in base 36). */
export function encodeCursor(position: CategoryPosition): string {
  return `${position.publishedMicros.toString(36)}.${position.id.toString(36)}`;
}

const CURSOR = /^(-?[0-9a-z]{1,11})\.([0-9a-z]{1,6})$/;

/** The place a cursor names; null for anything that is not one of ours. */
export function decodeCursor(cursor: string | null | undefined): CategoryPosition | null {
  const match = CURSOR.exec(cursor ?? "");
  if (!match) return null;
  const publishedMicros = parseInt(match[1]!, 36);
  const id = parseInt(match[2]!, 36);
  if (!Number.isSafeInteger(publishedMicros) || !(id >= 1 && id <= 2_147_483_647)) return null;
  return { publishedMicros, id };
}

/** The cursor a category page's link carries: Older's `after` (the last story it came from), Newer's `before` (the first). */
export type CategoryCursor = { after?: string | null; before?: string | null };

/**
 * A category's page. The title is the category's name, else the first story's category, else
 * 'Category'; `found` is false for an unknown slug. With a cursor from the Older
 * (`after`) or Newer (`before`) link, the page is read from that story on, so stories published
 * meanwhile neither repeat nor hide one; `page` is then only the number shown. A cursor that is not
 * ours, or that no longer leads anywhere (nothing older, or less than a page newer), falls back to
 * the page number.
 */
export async function getCategoryPage(
  deps: PublicDeps,
  slug: string,
  page: number,
  cursor: CategoryCursor = {},
): Promise<{
  found: boolean;
  title: string;
  slug: string;
  stories: Paged<PublicStory>;
  /** Cursors of the first and last stories shown, for the Newer and Older links. */
  cursors: { newer: string | null; older: string | null };
}> {
  const noCursors = { newer: null, older: null };
  const category = await deps.categories.findBySlug(slug);
  if (!category) return { found: false, title: "Category", slug, stories: paged([], 0, 1), cursors: noCursors };
  const after = decodeCursor(cursor.after);
  const before = after ? null : decodeCursor(cursor.before);
  const byCategory = (start: CategoryPageStart) => deps.publicStories.byCategory(category.id, { limit: PAGE_SIZE, ...start });
  const [total, cursored] = await Promise.all([
    deps.publicStories.categoryTotal(category.id),
    after ? byCategory({ after }) : before ? byCategory({ before }) : null,
  ]);
  const leadsSomewhere = cursored && cursored.stories.length > 0 && !(before && cursored.stories.length < PAGE_SIZE);
  const read = leadsSomewhere ? cursored : await byCategory({ offset: (page - 1) * PAGE_SIZE });
  const items = read.stories.map(toPublicStory);
  const title = category.name.trim() || items[0]?.category || "Category";
  const cursors = { newer: read.first && encodeCursor(read.first), older: read.last && encodeCursor(read.last) };
  return { found: true, title, slug: category.slug, stories: paged(items, total, page), cursors };
}

/** A published story and more from its category; null for unknown or unpublished slugs. */
export async function getStoryPage(
  deps: PublicDeps,
  slug: string,
): Promise<{ story: PublicStory; content: string | null; related: PublicStory[]; imageWidth: number | null } | null> {
  const story = await deps.publicStories.bySlug(slug);
  if (!story) return null;
  const related = story.categoryId === null ? [] : await deps.publicStories.related(story.categoryId, story.id, RELATED_LIMIT);
  // The picture's measured width decides whether it is shared or the story's card is (lib/story-image.ts).
  return { story: toPublicStory(story), content: story.content, related: related.map(toPublicStory), imageWidth: story.imageWidth };
}

/** What a published story's share card draws (its title and category as its page shows them); null for unknown or unpublished ids. */
export async function getStoryCard(deps: Pick<PublicDeps, "publicStories">, id: number): Promise<{ title: string; category: string } | null> {
  const story = await deps.publicStories.cardOf(id);
  return story ? { title: story.title, category: publicCategoryName(story.categoryName) } : null;
}

/**
 * Full search: a blank query gives nothing; otherwise a case-insensitive substring
 * of title, summary or content, title matches first. With no result, a close title word is offered.
 */
export async function searchStories(
  deps: PublicDeps,
  rawQuery: string | null,
  page: number,
): Promise<{ query: string; results: Paged<PublicStory>; didYouMean: string | null }> {
  const query = searchQueryFrom(rawQuery);
  if (query === "") return { query, results: paged([], 0, 1), didYouMean: null };
  const { stories, total, totalIsCapped } = await deps.publicStories.search(query, {
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
    countCap: SEARCH_COUNT_CAP,
    // Matches are read all at once and ordered here only when the count is exact (not capped).
    fewMatches: SEARCH_COUNT_CAP,
  });
  const didYouMean = total === 0 ? await suggestSpelling(deps, query) : null;
  return { query, results: { ...paged(stories.map(toPublicStory), total, page), totalIsCapped }, didYouMean };
}

// Replaces each word of the query that has a close title word; null when nothing changes.
async function suggestSpelling(deps: PublicDeps, query: string): Promise<string | null> {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean).slice(0, 5);
  let changed = false;
  const fixed = await Promise.all(
    words.map(async (word) => {
      if (word.length < 3 || word.length > SEARCH_MAX_WORD_LENGTH) return word;
      const close = await deps.publicStories.closestTitleWord(word, { recentTitles: DID_YOU_MEAN_TITLES });
      if (close) changed = true;
      return close ?? word;
    }),
  );
  return changed ? fixed.join(" ") : null;
}

/** Title suggestions while typing: at least 3 characters after trimming, at most 5, title only. */
export async function suggestStories(
  deps: PublicDeps,
  rawQuery: string | null,
): Promise<{ id: number; title: string; slug: string }[]> {
  const query = searchQueryFrom(rawQuery);
  if (query.length < SUGGESTION_MIN_LENGTH) return [];
  return deps.publicStories.suggest(query, SUGGESTION_LIMIT);
}
