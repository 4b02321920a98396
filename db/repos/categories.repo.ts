import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "../client";
import { categories } from "../schema";

export type CategoryRow = typeof categories.$inferSelect;
export type NewCategory = { name: string; slug: string; displayOrder?: number };

export function categoriesRepo(db: Db) {
  return {
    /** All categories in display order (header, home). */
    listAll(): Promise<CategoryRow[]> {
      return db.select().from(categories).orderBy(asc(categories.displayOrder), asc(categories.id));
    },

    async findBySlug(slug: string): Promise<CategoryRow | null> {
      const [row] = await db.select().from(categories).where(eq(categories.slug, slug)).limit(1);
      return row ?? null;
    },

    async count(): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(categories);
      return row?.n ?? 0;
    },

    /** Inserts categories whose slug is new; existing slugs are left as they are. Returns how many were added. */
    async insertMissing(rows: NewCategory[]): Promise<number> {
      if (rows.length === 0) return 0;
      const inserted = await db
        .insert(categories)
        .values(rows.map((r, i) => ({ name: r.name, slug: r.slug, displayOrder: r.displayOrder ?? i + 1 })))
        .onConflictDoNothing({ target: categories.slug })
        .returning({ id: categories.id });
      return inserted.length;
    },
  };
}
export type CategoriesRepo = ReturnType<typeof categoriesRepo>;
