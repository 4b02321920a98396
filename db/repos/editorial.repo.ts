import { eq, sql } from "drizzle-orm";
import type { Db } from "../client";
import { insertAudit, type AuditRecord } from "./audit.repo";
import { categories, rejectedStories, stories } from "../schema";
import { imageWorkReset } from "./images.repo";

export type StoryRow = typeof stories.$inferSelect;

/** A story's editable fields: those of the Add/Edit dialog. */
export type StoryFields = {
  title: string;
  summary: string | null;
  content: string | null;
  imageUrl: string | null;
  sourceUrl: string | null;
  categoryId: number | null;
  isFeatured: boolean;
};

/** Where a story links to, and the keys it is deduplicated by: they change together. */
export type StoryLinkFields = { originalUrl: string | null; sourceUrl: string | null; normalizedUrl: string; urlHash: string };

type Audit = AuditRecord;

/** Data access of the back office's story review; every change is written with its audit entry. */
export function editorialRepo(db: Db) {
  const audit = (tx: Db, storyId: number, entry: Audit) => insertAudit(tx, "story", storyId, entry);

  return {
    async findById(id: number): Promise<StoryRow | null> {
      const [row] = await db.select().from(stories).where(eq(stories.id, id)).limit(1);
      return row ?? null;
    },

    /** Sets a story's status (and a publish date when it is first published), with its audit entry. */
    async setStatus(id: number, status: "published" | "pending", entry: Audit, also: { categoryId?: number } = {}): Promise<StoryRow | null> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(stories)
          .set({
            ...also,
            status,
            updatedAt: new Date(),
            ...(status === "published" ? { publishDate: sql`coalesce(${stories.publishDate}, now())` } : {}),
          })
          .where(eq(stories.id, id))
          .returning();
        if (row) await audit(tx, id, entry);
        return row ?? null;
      });
    },

    async update(id: number, fields: Partial<StoryFields & StoryLinkFields>, entry: Audit): Promise<StoryRow | null> {
      return db.transaction(async (tx) => {
        // A new picture's size is not the old one's: it is measured again when it is next fetched.
        const size =
          fields.imageUrl === undefined
            ? {}
            : {
                imageWidth: sql<number | null>`case when ${stories.imageUrl} is not distinct from ${fields.imageUrl} then ${stories.imageWidth} end`,
                imageHeight: sql<number | null>`case when ${stories.imageUrl} is not distinct from ${fields.imageUrl} then ${stories.imageHeight} end`,
              };
        const [row] = await tx
          .update(stories)
          .set({ ...fields, ...size, ...imageWorkReset(fields), updatedAt: new Date() })
          .where(eq(stories.id, id))
          .returning();
        if (row) await audit(tx, id, entry);
        return row ?? null;
      });
    },

    async insert(row: typeof stories.$inferInsert, entry: Audit): Promise<StoryRow> {
      return db.transaction(async (tx) => {
        const [created] = await tx.insert(stories).values(row).returning();
        if (!created) throw new Error("insert into stories returned no row");
        await audit(tx, created.id, entry);
        return created;
      });
    },

    async delete(id: number, entry: Audit): Promise<boolean> {
      return db.transaction(async (tx) => {
        const deleted = await tx.delete(stories).where(eq(stories.id, id)).returning({ id: stories.id });
        if (deleted.length > 0) await audit(tx, id, entry);
        return deleted.length > 0;
      });
    },

    /**
     * Moves a story into rejected_stories and removes it from stories, in one transaction. When its
     * normalised URL is already rejected, the story is only removed. Returns whether it was already there.
     */
    async reject(
      id: number,
      rejection: Omit<typeof rejectedStories.$inferInsert, "id">,
      entry: Audit,
    ): Promise<{ alreadyRejected: boolean } | null> {
      return db.transaction(async (tx) => {
        const inserted = await tx
          .insert(rejectedStories)
          .values(rejection)
          .onConflictDoNothing({ target: rejectedStories.normalizedUrl })
          .returning({ id: rejectedStories.id });
        const deleted = await tx.delete(stories).where(eq(stories.id, id)).returning({ id: stories.id });
        if (deleted.length === 0) {
          // Nothing to reject: undo the insert by failing the transaction.
          throw new StoryGoneError();
        }
        await audit(tx, id, { ...entry, details: { ...entry.details, alreadyRejected: inserted.length === 0 } });
        return { alreadyRejected: inserted.length === 0 };
      }).catch((error: unknown) => {
        if (error instanceof StoryGoneError) return null;
        throw error;
      });
    },

    /** Whether a story with this URL hash exists. */
    async urlHashExists(urlHash: string): Promise<boolean> {
      const [row] = await db.select({ id: stories.id }).from(stories).where(eq(stories.urlHash, urlHash)).limit(1);
      return row !== undefined;
    },

    /** Whether a category with this id exists (a story is given only one that does). */
    async categoryExists(id: number): Promise<boolean> {
      const [row] = await db.select({ id: categories.id }).from(categories).where(eq(categories.id, id)).limit(1);
      return row !== undefined;
    },

    async slugExists(slug: string): Promise<boolean> {
      const [row] = await db.select({ id: stories.id }).from(stories).where(eq(stories.slug, slug)).limit(1);
      return row !== undefined;
    },
  };
}
export type EditorialRepo = ReturnType<typeof editorialRepo>;

class StoryGoneError extends Error {}
