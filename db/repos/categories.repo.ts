import { asc, eq, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../client";
import { insertAudit } from "./audit.repo";
import { auditLog, categories, stories } from "../schema";

type Audit = { actorUserId: string; action: string; details?: Record<string, unknown> };

export type CategoryRow = typeof categories.$inferSelect;
export type NewCategory = { name: string; slug: string; displayOrder?: number };

export function categoriesRepo(db: Db) {
  const audit = (tx: Db, categoryId: number, entry: Audit) => insertAudit(tx, "category", categoryId, entry);

  /**
   * How many stories each category has: published (the number the public pages show for it),
   * pending, and in all (every status; what a delete must move). One grouped query; categories
   * without stories are absent.
   */
  async function storyCounts(): Promise<Map<number, { published: number; pending: number; all: number }>> {
    const rows = await db
      .select({
        categoryId: stories.categoryId,
        published: sql<number>`(count(*) filter (where ${stories.status} = 'published'))::int`,
        pending: sql<number>`(count(*) filter (where ${stories.status} = 'pending'))::int`,
        all: sql<number>`count(*)::int`,
      })
      .from(stories)
      .where(isNotNull(stories.categoryId))
      .groupBy(stories.categoryId);
    return new Map(rows.map(({ categoryId, ...counts }) => [categoryId as number, counts]));
  }

  return {
    storyCounts,

    /** Every category in display order with its story counts (see storyCounts). */
    async listWithCounts(): Promise<(CategoryRow & { storyCount: number; publishedCount: number; pendingCount: number })[]> {
      const [counts, rows] = await Promise.all([
        storyCounts(),
        db.select().from(categories).orderBy(asc(categories.displayOrder), asc(categories.id)),
      ]);
      return rows.map((c) => {
        const n = counts.get(c.id);
        return { ...c, storyCount: n?.all ?? 0, publishedCount: n?.published ?? 0, pendingCount: n?.pending ?? 0 };
      });
    },

    async findById(id: number): Promise<CategoryRow | null> {
      const [row] = await db.select().from(categories).where(eq(categories.id, id)).limit(1);
      return row ?? null;
    },

    /** Adds a category after the last one (highest display_order + 1, or 1). */
    async insertLast(row: { name: string; slug: string }, entry: Audit): Promise<CategoryRow> {
      return db.transaction(async (tx) => {
        const [max] = await tx.select({ n: sql<number | null>`max(${categories.displayOrder})` }).from(categories);
        const [created] = await tx
          .insert(categories)
          .values({ ...row, displayOrder: (max?.n ?? 0) + 1 })
          .returning();
        if (!created) throw new Error("insert into categories returned no row");
        await audit(tx, created.id, entry);
        return created;
      });
    },

    async update(id: number, fields: { name: string; slug: string }, entry: Audit): Promise<CategoryRow | null> {
      return db.transaction(async (tx) => {
        const [row] = await tx.update(categories).set({ ...fields, updatedAt: new Date() }).where(eq(categories.id, id)).returning();
        if (row) await audit(tx, id, entry);
        return row ?? null;
      });
    },

    /** Rewrites display_order as 1..n in the given order, one update per row, in one transaction. */
    async reorder(ids: number[], actorUserId: string): Promise<void> {
      await db.transaction(async (tx) => {
        for (const [index, id] of ids.entries()) {
          await tx.update(categories).set({ displayOrder: index + 1, updatedAt: new Date() }).where(eq(categories.id, id));
        }
        await tx.insert(auditLog).values({ actorUserId, action: "category.reorder", entityType: "category", entityId: "*", details: { order: ids } });
      });
    },

    async countStories(id: number): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(stories).where(eq(stories.categoryId, id));
      return row?.n ?? 0;
    },

    /** Deletes a category, first moving its stories to another one when asked, in one transaction. */
    async deleteMovingStories(id: number, moveTo: number | null, entry: Audit): Promise<void> {
      await db.transaction(async (tx) => {
        if (moveTo !== null) await tx.update(stories).set({ categoryId: moveTo, updatedAt: new Date() }).where(eq(stories.categoryId, id));
        await tx.delete(categories).where(eq(categories.id, id));
        await audit(tx, id, entry);
      });
    },
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
