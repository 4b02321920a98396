import type { CategoriesRepo, CategoryRow } from "~/db/repos/categories.repo";
import { systemClock, type Clock } from "~/lib/clock";

export type PublicCategories = Pick<CategoriesRepo, "listAll" | "findBySlug"> & {
  /** Drops the copy kept: the next read goes to the database. */
  forget(): void;
};

/**
 * The categories as the public pages read them. Every page's header lists them, the home page's
 * cards and a category page start from them, and only an editor changes them: on PGlite each read
 * was a query of its own (1-2 ms of a 20 ms home page at 100,000 stories), two of the home page's
 * five. Read once and kept for `freshMs`, the page cache's freshness (no page is older than that
 * anyway), and dropped at once by `forget()`, which the web process calls with the page cache's
 * own clear (an editorial change here, or another web process's by NOTIFY). A failed read is not
 * kept. The rows are shared by every reader: read them, never change them.
 */
export function publicCategories(repo: Pick<CategoriesRepo, "listAll">, options: { freshMs: number; now?: Clock }): PublicCategories {
  const now = options.now ?? systemClock;
  let kept: { at: number; rows: Promise<CategoryRow[]> } | null = null;
  const listAll = (): Promise<CategoryRow[]> => {
    const at = now();
    if (kept && at - kept.at < options.freshMs) return kept.rows;
    // Settled once: a query builder is a thenable that would run its query again for each reader.
    const entry = { at, rows: Promise.resolve(repo.listAll()) };
    kept = entry;
    entry.rows.catch(() => {
      if (kept === entry) kept = null;
    });
    return entry.rows;
  };
  return {
    listAll,
    async findBySlug(slug: string) {
      return (await listAll()).find((c) => c.slug === slug) ?? null;
    },
    forget() {
      kept = null;
    },
  };
}
