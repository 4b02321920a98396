import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { stories } from "~/db/schema";
import { makeCategory, makeStory, makeUser } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { getCategoryPage } from "~/domain/public/public-site";
import { slugify } from "~/lib/slug";
import { addCategory, deleteCategory, listAdminCategories, reorderCategories, updateCategory } from "./admin-categories";
import { DEFAULT_CATEGORIES } from "./default-categories";

const t = testDatabaseForFile();

describe("categories", () => {
  test("a category's slug is made the way a story's is, the way the default categories' slugs were written", async () => {
    for (const category of DEFAULT_CATEGORIES) expect(slugify(category.name)).toBe(category.slug);
    const admin = await makeUser(t.db);
    expect(await addCategory(t.repos, { actorUserId: admin.id, name: "Weather & Skies", slug: "Weather & Skies!" })).toMatchObject({ slug: "weather-skies" });
  });

  test("renaming a category keeps a slug stored by the earlier order (crime--courts)", async () => {
    const admin = await makeUser(t.db);
    const category = await makeCategory(t.db, { name: "Crime & Courts", slug: "crime--courts" });
    await updateCategory(t.repos, { actorUserId: admin.id, id: category.id, name: "Crime and Courts", slug: category.slug });
    expect((await t.repos.categories.findBySlug("crime--courts"))?.name).toBe("Crime and Courts");
  });

  test("a new category comes after the last one, or first when there is none", async () => {
    const admin = await makeUser(t.db);
    const first = await addCategory(t.repos, { actorUserId: admin.id, name: "Animals", slug: "Animals" });
    expect(first).toMatchObject({ slug: "animals", displayOrder: 1 });
    await makeCategory(t.db, { displayOrder: 7 });
    expect((await addCategory(t.repos, { actorUserId: admin.id, name: "Space", slug: "space" })).displayOrder).toBe(8);
  });

  test("name and slug are required and the slug must be free", async () => {
    const admin = await makeUser(t.db);
    await makeCategory(t.db, { name: "Animals", slug: "animals" });
    await expect(addCategory(t.repos, { actorUserId: admin.id, name: " ", slug: "x" })).rejects.toMatchObject({ code: "INVALID_CATEGORY" });
    await expect(addCategory(t.repos, { actorUserId: admin.id, name: "Beasts", slug: "animals" })).rejects.toMatchObject({ code: "SLUG_TAKEN" });
  });

  test("editing renames a category and records it", async () => {
    const admin = await makeUser(t.db);
    const category = await makeCategory(t.db, { name: "Animals", slug: "animals" });
    await updateCategory(t.repos, { actorUserId: admin.id, id: category.id, name: "Creatures", slug: "creatures" });
    expect(await t.repos.categories.findBySlug("creatures")).toMatchObject({ name: "Creatures" });
    expect((await t.repos.audit.forEntity("category", String(category.id)))[0]?.action).toBe("category.update");
  });

  test("reordering rewrites display_order as 1..n", async () => {
    const admin = await makeUser(t.db);
    const a = await makeCategory(t.db, { displayOrder: 1 });
    const b = await makeCategory(t.db, { displayOrder: 2 });
    const c = await makeCategory(t.db, { displayOrder: 5 });
    await reorderCategories(t.repos, { actorUserId: admin.id, ids: [c.id, a.id, b.id] });
    expect((await listAdminCategories(t.repos)).map((x) => [x.id, x.displayOrder])).toEqual([
      [c.id, 1],
      [a.id, 2],
      [b.id, 3],
    ]);
    await expect(reorderCategories(t.repos, { actorUserId: admin.id, ids: [a.id, b.id] })).rejects.toMatchObject({ code: "STALE_ORDER" });
  });

  test("lists each category with its published count (the one its public page shows) and its pending count beside it", async () => {
    const category = await makeCategory(t.db, { slug: "oddities" });
    const other = await makeCategory(t.db);
    await makeStory(t.db, { categoryId: category.id });
    await makeStory(t.db, { categoryId: category.id, isFeatured: true });
    await makeStory(t.db, { categoryId: category.id, status: "pending" });
    await makeStory(t.db, { categoryId: other.id, status: "pending" });
    await makeStory(t.db, { categoryId: null });
    const [listed, empty] = await listAdminCategories(t.repos);
    expect(listed).toMatchObject({ id: category.id, published: 2, pending: 1, storyCount: 3 });
    expect(empty).toMatchObject({ id: other.id, published: 0, pending: 1, storyCount: 1 });
    // One definition: the category page counts the same published stories, the featured one included.
    expect((await getCategoryPage(t.repos, "oddities", 1)).stories.total).toBe(listed?.published);
  });

  test("a category with stories is deleted only after moving them", async () => {
    const admin = await makeUser(t.db);
    const doomed = await makeCategory(t.db);
    const target = await makeCategory(t.db);
    const story = await makeStory(t.db, { categoryId: doomed.id });
    await expect(deleteCategory(t.repos, { actorUserId: admin.id, id: doomed.id, moveTo: null })).rejects.toMatchObject({
      code: "CATEGORY_HAS_STORIES",
    });
    await deleteCategory(t.repos, { actorUserId: admin.id, id: doomed.id, moveTo: target.id });
    const [moved] = await t.db.select().from(stories).where(eq(stories.id, story.id));
    expect(moved?.categoryId).toBe(target.id);
    expect(await t.repos.categories.findById(doomed.id)).toBeNull();
  });

  test("an empty category is deleted at once", async () => {
    const admin = await makeUser(t.db);
    const empty = await makeCategory(t.db);
    await deleteCategory(t.repos, { actorUserId: admin.id, id: empty.id, moveTo: null });
    expect(await t.repos.categories.findById(empty.id)).toBeNull();
  });
});
