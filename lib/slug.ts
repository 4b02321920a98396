/** A story slug from its title (spec section 5): lower-case, word characters, spaces and hyphens kept, whitespace runs to hyphens. */
export function storySlug(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^\w\s-]/g, "")
    .trim()
    .replace(/\s+/g, "-");
}
