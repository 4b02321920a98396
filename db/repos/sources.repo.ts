import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../client";
import { sources } from "../schema";

export type SourceRow = typeof sources.$inferSelect;
export type NewSource = typeof sources.$inferInsert;

export function sourcesRepo(db: Db) {
  return {
    async findByName(name: string): Promise<SourceRow | null> {
      const [row] = await db.select().from(sources).where(eq(sources.name, name)).limit(1);
      return row ?? null;
    },

    /** Active RSS sources: what the dashboard calls 'RSS feeds monitored'. */
    async countActiveRss(): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(sources)
        .where(and(eq(sources.status, "active"), eq(sources.sourceType, "rss")));
      return row?.n ?? 0;
    },

    async insert(row: NewSource): Promise<SourceRow> {
      const [created] = await db.insert(sources).values(row).returning();
      if (!created) throw new Error("insert into sources returned no row");
      return created;
    },
  };
}
export type SourcesRepo = ReturnType<typeof sourcesRepo>;
