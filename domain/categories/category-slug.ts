/** A category slug from its name (spec section 5): lower-case, whitespace runs to hyphens, only word characters and hyphens. */
export function categorySlug(name: string): string {
  return name
    .toLowerCase()
    .trim()
    .replace(/\s+/g, "-")
    .replace(/[^\w-]/g, "");
}
