/**
 * The one slug of a title or category name: lower-cased, characters other than
 * word characters, whitespace and hyphens removed, trimmed, whitespace runs to hyphens. Removing
 * before hyphenating is the order the default categories' slugs were written in ("Crime & Courts"
 * is crime-courts, not crime--courts). Every stored slug is made of word characters and hyphens
 * only, and such a slug is its own slug, so slugging a stored one again never changes it.
 */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\w\s-]/g, "")
    .trim()
    .replace(/\s+/g, "-");
}

/** The longest story slug: a long headline gives a URL that still reads as one. */
export const MAX_STORY_SLUG = 80;

/**
 * A story's slug, whichever way the story comes (a feed, a scraped page, the story form): the slug of
 * its title (or of the slug typed for it), cut to MAX_STORY_SLUG, without hyphens at its ends;
 * "story" when nothing is left. The caller makes it unique.
 */
export function storySlug(title: string): string {
  return slugify(title).slice(0, MAX_STORY_SLUG).replace(/^-+|-+$/g, "") || "story";
}
