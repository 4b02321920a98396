import { randomUUID } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import type { Db } from "../client";
import { MIGRATIONS_FOLDER } from "../migrate";
import { accounts, authRateLimits, crawlHosts, stories, triageModels, verifications } from "../schema";
import {
  makeAuditEntry,
  makeCategory,
  makeFeedLog,
  makeJob,
  makeRejectedStory,
  makeScrapedCandidate,
  makeSession,
  makeSocialPost,
  makeSource,
  makeStory,
  makeUrlQueueItem,
  makeUser,
} from "./factories";

// Data for snapshot and carry-over tests: rows in every table, with the awkward values a copy must
// keep (newlines, tabs, backslashes, quotes, non-ASCII, NULLs, JSON, timestamps to the microsecond).

/** Awkward text: what a line- and tab-separated format must escape, and more. */
export const AWKWARD = "Line one\nline two\ttabbed \\ backslash \\N not null, \"quoted\", 'single', café 🐐, \r\n end";

/** Puts rows in every table of schema public through the factories and plain inserts. */
export async function seedEveryTable(db: Db): Promise<void> {
  const category = await makeCategory(db, { name: "Animals", slug: "animals" });
  const source = await makeSource(db, { name: `Feed ${AWKWARD}` });
  const story = await makeStory(db, { categoryId: category.id, sourceId: source.id, content: AWKWARD, imageWidth: 800, imageHeight: 600 });
  const pending = await makeStory(db, { categoryId: category.id, status: "pending", summary: null });
  await makeStory(db, { categoryId: category.id, isFeatured: true });
  await makeRejectedStory(db);
  await makeUrlQueueItem(db, { sourceId: source.id });
  await makeSocialPost(db, { storyId: story.id });
  await makeFeedLog(db, { sourceId: source.id });
  await makeScrapedCandidate(db, { sourceId: source.id });
  const admin = await makeUser(db, { email: "admin@oddwire.test", isAdmin: true, emailVerified: true });
  await makeSession(db, { userId: admin.id, ipAddress: "203.0.113.9", userAgent: "Mozilla/5.0 (X11)" });
  await db.insert(accounts).values({
    id: randomUUID(),
    accountId: admin.id,
    providerId: "credential",
    userId: admin.id,
    password: "scrypt$16384$8$1$c2FsdA==$aGFzaGVkIHBhc3N3b3Jk",
  });
  await db.insert(verifications).values({
    id: randomUUID(),
    identifier: "email-verification:admin@oddwire.test",
    value: "a-secret-token-value",
    expiresAt: new Date("2030-01-02T03:04:05.678Z"),
  });
  await db.insert(authRateLimits).values({ key: "sign-in:203.0.113.9", hits: 3 });
  await db.insert(crawlHosts).values({ origin: "https://news.example", robotsStatus: 200, robotsBody: "User-agent: *\nDisallow: /private\n" });
  await makeJob(db, { requestedBy: admin.id, input: { note: AWKWARD, nested: { list: [1, 2.5, null] } }, counts: { enhanced: 2 } });
  await makeAuditEntry(db, { actorUserId: admin.id, details: { from: "pending", to: "published" } });
  await db.execute(sql`UPDATE stories SET updated_at = '2026-01-02 03:04:05.123456+00' WHERE id = ${story.id}`);
  await db.insert(triageModels).values({ kind: "ranking", published: 60, rejected: 75, model: { weights: [0.5, -1.25], note: AWKWARD } });
  await db
    .update(stories)
    .set({ triageScore: 0.625, suggestedCategoryId: category.id, suggestedCategoryConfidence: 0.5, sameStoryGroup: story.id, sameStoryReason: AWKWARD })
    .where(eq(stories.id, pending.id));
}

/** The rows of a raw query's result (either driver's). */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** Every table of schema public. */
export async function publicTables(database: { db: Db }): Promise<string[]> {
  const result = await database.db.execute(sql`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`);
  return rowsOf<{ tablename: string }>(result).map((row) => row.tablename);
}

/**
 * Every row of every table of schema public, in a fixed order, as PostgreSQL's JSON of each row,
 * without the generated columns: those are the server's own work on the stored ones, and servers
 * differ in it (the embedded PostgreSQL 17 makes a search lexeme of an emoji, PGlite does not).
 */
export async function everyRow(database: { db: Db }): Promise<Record<string, string[]>> {
  const rows: Record<string, string[]> = {};
  const tables = await publicTables(database);
  // Timestamps' text follows the session's time zone: the same on both sides.
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL TimeZone = 'UTC'`);
    for (const table of tables) {
      const generated = rowsOf<{ name: string }>(
        await tx.execute(sql`SELECT attname AS name FROM pg_attribute WHERE attrelid = ${`public."${table}"`}::regclass AND attgenerated <> ''`),
      ).map((column) => `'${column.name}'`);
      const omit = generated.length > 0 ? ` - ARRAY[${generated.join(", ")}]::text[]` : "";
      const result = await tx.execute(sql.raw(`SELECT (to_jsonb(t)${omit})::text AS row FROM public."${table}" t ORDER BY 1`));
      rows[table] = rowsOf<{ row: string }>(result).map((row) => row.row);
    }
  });
  return rows;
}

/** A copy of the migrations folder without its last migration: an earlier release's. */
export function migrationsWithoutLast(): { folder: string; remove: () => void } {
  const folder = mkdtempSync(path.join(os.tmpdir(), "oddwire-migrations-"));
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalFile = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: unknown[] };
  journal.entries.pop();
  writeFileSync(journalFile, JSON.stringify(journal));
  return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

/** Rows an earlier release's schema takes: written in SQL, as the last migration's columns are not there yet. */
export async function seedEarlierRelease(database: { db: Db }): Promise<void> {
  await database.db.execute(
    sql`INSERT INTO stories (title, normalized_url, url_hash, slug, status) VALUES ('A story from before', 'https://news.example/before', 'hash-before', 'a-story-from-before', 'pending')`,
  );
  await makeSession(database.db);
  await database.db.execute(sql`INSERT INTO jobs (id, kind, status) VALUES ('job-1', 'ingest', 'succeeded')`);
}

/** Every row as objects, with what the last migration adds (the triage columns of stories and rejected_stories, and triage_models, empty). */
export function afterLastMigration(rows: Record<string, string[]>): Record<string, object[]> {
  const parsed = parsedRows(rows);
  parsed.stories = (parsed.stories ?? []).map((story) => ({
    ...story,
    triage_score: null,
    suggested_category_id: null,
    suggested_category_confidence: null,
    same_story_group: null,
    same_story_reason: null,
  }));
  parsed.rejected_stories = (parsed.rejected_stories ?? []).map((row) => ({ ...row, summary: null, ingested_at: null }));
  parsed.triage_models = [];
  return parsed;
}

/** Every row as objects. */
export function parsedRows(rows: Record<string, string[]>): Record<string, object[]> {
  return Object.fromEntries(Object.entries(rows).map(([table, list]) => [table, list.map((row) => JSON.parse(row) as object)]));
}
