import type { CategoriesRepo } from "~/db/repos/categories.repo";

/** The categories a new Oddwire starts with. */
export const DEFAULT_CATEGORIES = [
  { name: "Animals", slug: "animals" },
  { name: "Crime & Courts", slug: "crime-courts" },
  { name: "Science & Space", slug: "science-space" },
  { name: "Food & Drink", slug: "food-drink" },
  { name: "Tech & Internet", slug: "tech-internet" },
  { name: "Sports & Games", slug: "sports-games" },
  { name: "Paranormal", slug: "paranormal" },
  { name: "Records & Feats", slug: "records-feats" },
] as const;

/** On an empty database, creates the default categories; a database that has any is left alone. */
export async function ensureDefaultCategories(deps: {
  categories: Pick<CategoriesRepo, "count" | "insertMissing">;
}): Promise<number> {
  if ((await deps.categories.count()) > 0) return 0;
  return deps.categories.insertMissing(DEFAULT_CATEGORIES.map((c, i) => ({ ...c, displayOrder: i + 1 })));
}
