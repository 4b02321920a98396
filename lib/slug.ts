/**
 * The one slug of a title or category name (spec section 5): lower-cased, characters other than
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
