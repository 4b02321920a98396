import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { categories } from "~/db/schema";
import { makeCategory } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { publicCategories } from "./public-categories";

const t = testDatabaseForFile();

function counted() {
  let reads = 0;
  const repo = {
    listAll: () => {
      reads++;
      return t.repos.categories.listAll();
    },
  };
  return { repo, reads: () => reads };
}

describe("the public pages' categories", () => {
  test("are read once while fresh, by every page at the same time, and again once they are not", async () => {
    await makeCategory(t.db, { name: "Space", slug: "space", displayOrder: 2 });
    await makeCategory(t.db, { name: "Animals", slug: "animals", displayOrder: 1 });
    let clock = 0;
    const { repo, reads } = counted();
    const kept = publicCategories(repo, { freshMs: 2_000, now: () => clock });

    const [header, home] = await Promise.all([kept.listAll(), kept.listAll()]);
    expect(header.map((c) => c.slug)).toEqual(["animals", "space"]);
    expect(home).toBe(header);
    expect((await kept.findBySlug("space"))?.name).toBe("Space");
    expect(reads()).toBe(1);

    await t.db.update(categories).set({ name: "Outer space" }).where(eq(categories.slug, "space"));
    clock = 1_999;
    expect((await kept.findBySlug("space"))?.name).toBe("Space");
    clock = 2_000;
    expect((await kept.findBySlug("space"))?.name).toBe("Outer space");
    expect(reads()).toBe(2);
  });

  test("are read again at once after forget(), as after an editor's change", async () => {
    await makeCategory(t.db, { name: "Animals", slug: "animals" });
    const { repo, reads } = counted();
    const kept = publicCategories(repo, { freshMs: 60_000, now: () => 0 });
    expect(await kept.findBySlug("ghosts")).toBeNull();

    await makeCategory(t.db, { name: "Ghosts", slug: "ghosts" });
    kept.forget();
    expect((await kept.findBySlug("ghosts"))?.name).toBe("Ghosts");
    expect(reads()).toBe(2);
  });

  test("a failed read is not kept: the next one asks again", async () => {
    let fail = true;
    const repo = { listAll: () => (fail ? Promise.reject(new Error("database down")) : t.repos.categories.listAll()) };
    const kept = publicCategories(repo, { freshMs: 60_000, now: () => 0 });
    await expect(kept.listAll()).rejects.toThrow("database down");
    fail = false;
    await makeCategory(t.db, { name: "Animals", slug: "animals" });
    expect((await kept.listAll()).map((c) => c.slug)).toEqual(["animals"]);
  });
});
