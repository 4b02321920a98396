import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { verifyPassword } from "better-auth/crypto";
import { eq, sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { accounts, categories, rejectedStories, sources, stories, users } from "~/db/schema";
import { makeCategory } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { DEFAULT_CATEGORIES, ensureDefaultCategories } from "~/domain/categories/default-categories";
import { getDashboardStats } from "~/domain/dashboard/dashboard";
import { DEMO_ADMIN } from "./demo-content";
import { seedDemo } from "./seed-demo";

const t = testDatabaseForFile();
const PUBLIC_DIR = fileURLToPath(new URL("../../public", import.meta.url));
const NOW = new Date("2025-06-15T12:00:00Z");
const PASSWORD = "generated-for-this-data-dir";

async function counts() {
  const count = async (
    table: typeof categories | typeof sources | typeof stories | typeof rejectedStories | typeof users,
  ) => {
    const [row] = await t.db.select({ n: sql<number>`count(*)::int` }).from(table);
    return row?.n ?? 0;
  };
  return {
    categories: await count(categories),
    sources: await count(sources),
    stories: await count(stories),
    rejected: await count(rejectedStories),
    users: await count(users),
  };
}

describe("seedDemo", () => {
  test("the README's demo numbers are the ones the dashboard shows after a demo start", async () => {
    await seedDemo({ repos: t.repos, now: () => NOW.getTime() }, { adminPassword: PASSWORD });
    const readme = readFileSync(fileURLToPath(new URL("../../README.md", import.meta.url)), "utf8").replace(/\s+/g, " ");
    const said = /Total Stories (\d+) \((\d+) published, (\d+) pending\), Active Sources (\d+) \(of (\d+) sources.*?(\d+) categories, and (\d+) rejected stories/.exec(readme);
    expect(said, "the README states the demo's numbers").not.toBeNull();
    const stats = await getDashboardStats(t.repos, NOW);
    const found = await counts();
    expect(said!.slice(1).map(Number)).toEqual([stats.total, stats.published, stats.pending, stats.activeSources, found.sources, found.categories, found.rejected]);
  });

  test("loads a newsroom's worth of categories, sources, stories and an admin", async () => {
    const result = await seedDemo({ repos: t.repos, now: () => NOW.getTime() }, { adminPassword: PASSWORD });

    // Categories: the defaults.
    const categoryRows = await t.db.select().from(categories);
    expect(categoryRows.length).toBeGreaterThanOrEqual(8);
    expect(result.categories_added).toBe(categoryRows.length);

    // Sources: six, of every kind.
    const sourceRows = await t.db.select().from(sources);
    expect(sourceRows).toHaveLength(6);
    expect(result.sources_added).toBe(6);
    expect(result.queued_urls_added).toBe(8);
    expect(new Set(sourceRows.map((s) => s.sourceType))).toEqual(new Set(["rss", "web_scraping", "manual"]));

    // Stories: 300+ across published, pending and rejected, none of them empty.
    const storyRows = await t.db.select().from(stories);
    const rejectedRows = await t.db.select().from(rejectedStories);
    const published = storyRows.filter((s) => s.status === "published");
    const pending = storyRows.filter((s) => s.status === "pending");
    expect(published.length).toBeGreaterThan(0);
    expect(pending.length).toBeGreaterThan(0);
    expect(rejectedRows.length).toBeGreaterThan(0);
    expect(published.length + pending.length + rejectedRows.length).toBeGreaterThanOrEqual(300);
    expect(storyRows.some((s) => s.status === "rejected")).toBe(false);
    expect(result.stories_added).toBe(storyRows.length);
    expect(result.rejected_added).toBe(rejectedRows.length);

    // Every story is filed under a category and a source.
    expect(storyRows.every((s) => s.categoryId !== null && s.sourceId !== null)).toBe(true);
    expect(rejectedRows.every((s) => s.sourceId !== null)).toBe(true);

    // Published stories reach back over at least four months, up to now, and none lies in the future.
    const months = new Set(published.map((s) => `${s.publishDate!.getUTCFullYear()}-${s.publishDate!.getUTCMonth()}`));
    expect(months.size).toBeGreaterThanOrEqual(4);
    expect(published.every((s) => s.publishDate!.getTime() <= NOW.getTime())).toBe(true);
    expect(pending.every((s) => s.publishDate === null)).toBe(true);

    // Some are featured, some have no image, and every image is a local file.
    expect(published.some((s) => s.isFeatured)).toBe(true);
    expect(published.some((s) => s.imageUrl === null)).toBe(true);
    const images = storyRows.flatMap((s) => (s.imageUrl === null ? [] : [s.imageUrl]));
    expect(images.length).toBeGreaterThan(0);
    for (const image of new Set(images)) {
      expect(image.startsWith("/demo/")).toBe(true);
      expect(existsSync(path.join(PUBLIC_DIR, image)), `${image} exists under public/`).toBe(true);
    }

    // The demo admin can sign in with the advertised password.
    expect(result.admin).toEqual({ email: DEMO_ADMIN.email, password: PASSWORD, created: true });
    const admin = await t.repos.users.findByEmail(DEMO_ADMIN.email);
    expect(admin?.isAdmin).toBe(true);
    const [account] = await t.db.select().from(accounts).where(eq(accounts.userId, admin!.id));
    expect(await verifyPassword({ hash: account!.password!, password: PASSWORD })).toBe(true);
  });

  test("a second run adds nothing", async () => {
    await seedDemo({ repos: t.repos, now: () => NOW.getTime() }, { adminPassword: PASSWORD });
    const before = await counts();

    // A later day: the dates move, the content does not.
    const again = await seedDemo({ repos: t.repos, now: () => NOW.getTime() + 3 * 86_400_000 }, { adminPassword: PASSWORD });
    expect(await counts()).toEqual(before);
    expect(again).toMatchObject({
      categories_added: 0,
      sources_added: 0,
      stories_added: 0,
      rejected_added: 0,
      queued_urls_added: 0,
      admin: { created: false },
    });
  });
});

describe("ensureDefaultCategories", () => {
  test("creates the eight default categories on an empty database, in order", async () => {
    expect(await ensureDefaultCategories(t.repos)).toBe(8);
    const rows = await t.repos.categories.listAll();
    expect(rows.map((c) => ({ name: c.name, slug: c.slug }))).toEqual(
      DEFAULT_CATEGORIES.map((c) => ({ name: c.name, slug: c.slug })),
    );
  });

  test("does nothing when any category exists", async () => {
    await makeCategory(t.db, { name: "Only this one", slug: "only-this-one" });
    expect(await ensureDefaultCategories(t.repos)).toBe(0);
    expect((await t.repos.categories.listAll()).map((c) => c.slug)).toEqual(["only-this-one"]);
  });

  test("does nothing the second time", async () => {
    await ensureDefaultCategories(t.repos);
    expect(await ensureDefaultCategories(t.repos)).toBe(0);
    expect(await t.repos.categories.count()).toBe(8);
  });
});
