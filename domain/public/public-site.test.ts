import { eq, sql } from "drizzle-orm";
import { stories } from "~/db/schema";
import { describe, expect, test } from "vitest";
import { makeCategory, makeStory } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import {
  decodeCursor,
  encodeCursor,
  getCategoryPage,
  getHome,
  getStoryCard,
  getStoryPage,
  listCategories,
  PAGE_SIZE,
  parsePage,
  searchStories,
  suggestStories,
} from "./public-site";
import { publicCategories } from "./public-categories";

const t = testDatabaseForFile();
const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);

describe("the home page", () => {
  test("features the newest featured published story, never a pending one", async () => {
    await makeStory(t.db, { title: "Old featured", isFeatured: true, publishDate: hoursAgo(10) });
    await makeStory(t.db, { title: "New featured", isFeatured: true, publishDate: hoursAgo(1) });
    await makeStory(t.db, { title: "Pending featured", isFeatured: true, status: "pending" });
    const home = await getHome(t.repos);
    expect(home.featured?.title).toBe("New featured");
  });

  test("has one card per category with a non-featured published story: its count (every published story, as its page) and newest non-featured story", async () => {
    const animals = await makeCategory(t.db, { name: "Animals", slug: "animals", displayOrder: 2 });
    const space = await makeCategory(t.db, { name: "Space", slug: "space", displayOrder: 1 });
    const empty = await makeCategory(t.db, { name: "Empty", slug: "empty", displayOrder: 3 });
    const onlyFeatured = await makeCategory(t.db, { name: "Only featured", slug: "only-featured", displayOrder: 4 });
    await makeStory(t.db, { title: "Goat", categoryId: animals.id, publishDate: hoursAgo(5) });
    await makeStory(t.db, { title: "Llama", categoryId: animals.id, publishDate: hoursAgo(2) });
    await makeStory(t.db, { title: "Pending cat", categoryId: animals.id, status: "pending" });
    await makeStory(t.db, { title: "Featured comet", categoryId: space.id, isFeatured: true });
    await makeStory(t.db, { title: "Moon cheese", categoryId: space.id, publishDate: hoursAgo(3) });
    await makeStory(t.db, { title: "Only pending", categoryId: empty.id, status: "pending" });
    await makeStory(t.db, { title: "Alone and featured", categoryId: onlyFeatured.id, isFeatured: true });

    const { cards } = await getHome(t.repos);
    expect(cards.map((c) => [c.name, c.storyCount, c.sample.title])).toEqual([
      ["Space", 2, "Moon cheese"],
      ["Animals", 2, "Llama"],
    ]);
    // The same number as the category's own page.
    expect((await getCategoryPage(t.repos, "space", 1)).stories.total).toBe(2);
  });

  test("is empty when nothing is published", async () => {
    await makeStory(t.db, { status: "pending" });
    expect(await getHome(t.repos)).toEqual({ featured: null, cards: [] });
  });
});

describe("a category page", () => {
  test("shows the category's published stories newest first, a page at a time, with the total", async () => {
    const category = await makeCategory(t.db, { name: "Animals", slug: "animals" });
    for (let i = 0; i < PAGE_SIZE + 3; i++) await makeStory(t.db, { categoryId: category.id, publishDate: hoursAgo(i + 1) });
    await makeStory(t.db, { categoryId: category.id, status: "pending", title: "Hidden" });

    const first = await getCategoryPage(t.repos, "animals", 1);
    expect(first).toMatchObject({ found: true, title: "Animals", slug: "animals" });
    expect(first.stories).toMatchObject({ total: PAGE_SIZE + 3, page: 1, pageCount: 2 });
    expect(first.stories.items).toHaveLength(PAGE_SIZE);
    const dates = first.stories.items.map((s) => s.publishDate!);
    expect([...dates].sort().reverse()).toEqual(dates);

    const second = await getCategoryPage(t.repos, "animals", 2);
    expect(second.stories.items).toHaveLength(3);
    expect(second.stories.items.map((s) => s.title)).not.toContain("Hidden");
  });

  test("of an unknown slug is not found and titled 'Category'", async () => {
    expect(await getCategoryPage(t.repos, "nope", 1)).toMatchObject({ found: false, title: "Category", stories: { items: [] } });
  });

  test("parsePage accepts positive integers only", () => {
    expect([parsePage("3"), parsePage("0"), parsePage("-1"), parsePage("x"), parsePage(null), parsePage("1.5")]).toEqual([
      3, 1, 1, 1, 1, 1,
    ]);
  });
});

describe("a category page's Older and Newer links", () => {
  const titles = (page: { stories: { items: { title: string }[] } }) => page.stories.items.map((s) => s.title);

  /** A category of `count` published stories, "Story 1" the newest. */
  async function categoryOf(count: number) {
    const category = await makeCategory(t.db, { name: "Animals", slug: "animals" });
    for (let i = 1; i <= count; i++) await makeStory(t.db, { title: `Story ${i}`, categoryId: category.id, publishDate: hoursAgo(i) });
    return category;
  }

  /** Page 1, then every next page through its Older link's cursor. */
  async function walkOlder(pages: number) {
    const walked = [await getCategoryPage(t.repos, "animals", 1)];
    for (let n = 2; n <= pages; n++) walked.push(await getCategoryPage(t.repos, "animals", n, { after: walked.at(-1)!.cursors.older }));
    return walked;
  }

  test("lead through deep pages to the same stories as the page numbers, however close their publish times", async () => {
    const pages = 6;
    await categoryOf(PAGE_SIZE * (pages - 1) + 7);
    // Ten stories to a millisecond, apart by a microsecond or not at all: a cursor that kept
    // milliseconds only, or left out the id, would skip or repeat stories at a page's edge.
    await t.db.execute(sql`UPDATE stories SET publish_date = timestamptz '2024-05-01 12:00:00Z'
      - (id / 10) * interval '1 millisecond' - (id % 3) * interval '1 microsecond'`);

    const walked = await walkOlder(pages);
    for (const [i, page] of walked.entries()) {
      expect(page.stories).toMatchObject({ page: i + 1, pageCount: pages, total: PAGE_SIZE * (pages - 1) + 7 });
      expect(titles(page)).toEqual(titles(await getCategoryPage(t.repos, "animals", i + 1)));
    }
    expect(new Set(walked.flatMap(titles)).size).toBe(PAGE_SIZE * (pages - 1) + 7);
  });

  test("carry a short, URL-safe cursor of the first and last story shown", async () => {
    await categoryOf(PAGE_SIZE + 1);
    const first = await getCategoryPage(t.repos, "animals", 1);
    for (const cursor of [first.cursors.newer, first.cursors.older]) {
      expect(cursor).toMatch(/^[0-9a-z.-]{3,20}$/);
      expect(encodeCursor(decodeCursor(cursor)!)).toBe(cursor);
    }
  });

  test("a story published between page 1 and its Older link neither repeats nor hides one", async () => {
    await categoryOf(3 * PAGE_SIZE);
    const first = await getCategoryPage(t.repos, "animals", 1);
    await makeStory(t.db, { title: "Breaking", categoryId: (await t.repos.categories.findBySlug("animals"))!.id, publishDate: new Date() });

    const second = await getCategoryPage(t.repos, "animals", 2, { after: first.cursors.older });
    const expected = Array.from({ length: 2 * PAGE_SIZE }, (_, i) => `Story ${i + 1}`);
    expect([...titles(first), ...titles(second)]).toEqual(expected);
    expect(second.stories).toMatchObject({ page: 2, total: 3 * PAGE_SIZE + 1 });
    // By its number alone, page 2 has moved down a story: it starts with page 1's last.
    expect(titles(await getCategoryPage(t.repos, "animals", 2))[0]).toBe(`Story ${PAGE_SIZE}`);
  });

  test("Newer from a page reached by cursor gives back the page before it, even after a story is published", async () => {
    await categoryOf(4 * PAGE_SIZE);
    const [, second, third] = await walkOlder(3);
    await makeStory(t.db, { title: "Breaking", categoryId: (await t.repos.categories.findBySlug("animals"))!.id, publishDate: new Date() });

    const back = await getCategoryPage(t.repos, "animals", 2, { before: third!.cursors.newer });
    expect(titles(back)).toEqual(titles(second!));
    expect(back.cursors).toEqual(second!.cursors);
    expect(back.stories.page).toBe(2);
  });

  test.each([
    ["garbage", { after: "not a cursor" }],
    ["empty", { after: "" }],
    ["upper case", { after: "LQ8X3K.1A" }],
    ["too large a date", { after: "zzzzzzzzzzz.1" }],
    ["a zero id", { before: "lq8x3k.0" }],
    ["too large an id", { before: "lq8x3k.zzzzzz" }],
    ["both wrong", { after: "x.", before: ".y" }],
  ])("a cursor that is not one of ours (%s) falls back to the page number", async (_name, cursor) => {
    await categoryOf(2 * PAGE_SIZE + 3);
    const byNumber = await getCategoryPage(t.repos, "animals", 2);
    const page = await getCategoryPage(t.repos, "animals", 2, cursor);
    expect(page).toEqual(byNumber);
    // Its links lead on from the stories it shows.
    expect(titles(await getCategoryPage(t.repos, "animals", 3, { after: page.cursors.older }))).toEqual(["Story 49", "Story 50", "Story 51"]);
  });

  test("a cursor that leads nowhere any more (nothing older, or less than a page newer) falls back to the page number", async () => {
    await categoryOf(2 * PAGE_SIZE + 3);
    const [first, , last] = await walkOlder(3);
    const byNumber = await getCategoryPage(t.repos, "animals", 2);
    expect(await getCategoryPage(t.repos, "animals", 2, { after: last!.cursors.older })).toEqual(byNumber);
    expect(await getCategoryPage(t.repos, "animals", 2, { before: first!.cursors.newer })).toEqual(byNumber);
    expect(byNumber.cursors.older).not.toBe(last!.cursors.older);
  });
});

describe("a story page", () => {
  test("shows a published story with more from its category, never pending ones", async () => {
    const category = await makeCategory(t.db);
    const story = await makeStory(t.db, { title: "Main", categoryId: category.id, content: "Full text" });
    await makeStory(t.db, { title: "Sibling", categoryId: category.id });
    await makeStory(t.db, { title: "Pending sibling", categoryId: category.id, status: "pending" });
    const page = await getStoryPage(t.repos, story.slug);
    expect(page?.story.title).toBe("Main");
    expect(page?.content).toBe("Full text");
    expect(page?.related.map((s) => s.title)).toEqual(["Sibling"]);
  });

  test("is null for a pending or unknown slug", async () => {
    const pending = await makeStory(t.db, { status: "pending" });
    expect(await getStoryPage(t.repos, pending.slug)).toBeNull();
    expect(await getStoryPage(t.repos, "no-such-story")).toBeNull();
  });
});

describe("search", () => {
  test("a blank query gives nothing", async () => {
    await makeStory(t.db);
    expect((await searchStories(t.repos, "   ", 1)).results.total).toBe(0);
    expect((await searchStories(t.repos, null, 1)).results.items).toEqual([]);
  });

  test("matches a case-insensitive substring of title, summary or content, published only", async () => {
    await makeStory(t.db, { title: "A GOATherd's tale", summary: "x", content: "x" });
    await makeStory(t.db, { title: "Summary one", summary: "the goat ate it", content: "x" });
    await makeStory(t.db, { title: "Content one", summary: "x", content: "a goat, again" });
    await makeStory(t.db, { title: "Pending goat", status: "pending" });
    await makeStory(t.db, { title: "Nothing here", summary: "x", content: "x" });
    const { results } = await searchStories(t.repos, "  Goat ", 1);
    expect(results.total).toBe(3);
    expect(results.items.map((s) => s.title).sort()).toEqual(["A GOATherd's tale", "Content one", "Summary one"]);
  });

  test("ranks title matches first, then the newest", async () => {
    await makeStory(t.db, { title: "Old title llama", publishDate: hoursAgo(30) });
    await makeStory(t.db, { title: "Newest body match", summary: "a llama", publishDate: hoursAgo(1) });
    await makeStory(t.db, { title: "New title llama", publishDate: hoursAgo(5) });
    const { results } = await searchStories(t.repos, "llama", 1);
    expect(results.items.map((s) => s.title)).toEqual(["New title llama", "Old title llama", "Newest body match"]);
  });

  test("treats % and _ as plain characters", async () => {
    await makeStory(t.db, { title: "100% real", summary: "x", content: "x" });
    await makeStory(t.db, { title: "Some other story", summary: "x", content: "x" });
    expect((await searchStories(t.repos, "%", 1)).results.total).toBe(1);
    expect((await searchStories(t.repos, "_", 1)).results.total).toBe(0);
  });

  test("pages through many results", async () => {
    for (let i = 0; i < PAGE_SIZE + 1; i++) await makeStory(t.db, { title: `Comet ${i}` });
    const second = await searchStories(t.repos, "comet", 2);
    expect(second.results).toMatchObject({ total: PAGE_SIZE + 1, page: 2, pageCount: 2 });
    expect(second.results.items).toHaveLength(1);
  });

  test("offers a close title word when nothing matches", async () => {
    await makeStory(t.db, { title: "Raccoon steals a police car" });
    const result = await searchStories(t.repos, "racoon", 1);
    expect(result.results.total).toBe(0);
    expect(result.didYouMean).toBe("raccoon");
  });

  test("offers nothing when no title word is close", async () => {
    await makeStory(t.db, { title: "Raccoon steals a police car" });
    expect((await searchStories(t.repos, "xylophone", 1)).didYouMean).toBeNull();
  });

  test("the words it offers follow what is published: a story published or retitled after a search counts at once", async () => {
    await makeStory(t.db, { title: "Goat steals a police car", publishDate: new Date("2026-01-01T00:00:00Z") });
    expect((await searchStories(t.repos, "racoon", 1)).didYouMean).toBeNull();
    const raccoon = await makeStory(t.db, { title: "Raccoon steals a tractor", summary: "A farm loses its tractor.", publishDate: new Date("2026-01-02T00:00:00Z") });
    expect((await searchStories(t.repos, "racoon", 1)).didYouMean).toBe("raccoon");
    // The newest story itself retitled.
    await t.db.update(stories).set({ title: "Badger steals a tractor", updatedAt: new Date("2026-01-03T00:00:00Z") }).where(eq(stories.id, raccoon.id));
    expect((await searchStories(t.repos, "badgr", 1)).didYouMean).toBe("badger");
    expect((await searchStories(t.repos, "racoon", 1)).didYouMean).toBeNull();
  });

  test("never offers a word that only pending stories have", async () => {
    await makeStory(t.db, { title: "Raccoon secret", status: "pending" });
    expect((await searchStories(t.repos, "racoon", 1)).didYouMean).toBeNull();
  });
});

describe("suggestions", () => {
  test("need at least 3 characters after trimming", async () => {
    await makeStory(t.db, { title: "Goat mayor" });
    expect(await suggestStories(t.repos, "  go  ")).toEqual([]);
    expect((await suggestStories(t.repos, " goa ")).map((s) => s.title)).toEqual(["Goat mayor"]);
  });

  test("match the title only, case-insensitively, published only, at most 5", async () => {
    for (let i = 0; i < 7; i++) await makeStory(t.db, { title: `UFO sighting ${i}` });
    await makeStory(t.db, { title: "Other", summary: "ufo in the summary" });
    await makeStory(t.db, { title: "Pending ufo", status: "pending" });
    const suggestions = await suggestStories(t.repos, "ufo");
    expect(suggestions).toHaveLength(5);
    expect(suggestions.every((s) => s.title.startsWith("UFO sighting"))).toBe(true);
  });
});

describe("search paging past the end", () => {
  test("still reports the total", async () => {
    for (let i = 0; i < 3; i++) await makeStory(t.db, { title: `Yeti ${i}` });
    const far = await searchStories(t.repos, "yeti", 5);
    expect(far.results).toMatchObject({ total: 3, items: [], page: 5 });
  });
});

describe("search at scale", () => {
  test("a page after the title matches continues with the body matches, newest first", async () => {
    for (let i = 0; i < PAGE_SIZE + 1; i++) await makeStory(t.db, { title: `Comet ${i}`, publishDate: hoursAgo(100 + i) });
    await makeStory(t.db, { title: "Old body one", summary: "a comet", publishDate: hoursAgo(2) });
    await makeStory(t.db, { title: "New body one", content: "comet again", publishDate: hoursAgo(1) });
    const second = await searchStories(t.repos, "comet", 2);
    expect(second.results.items.map((s) => s.title)).toEqual([`Comet ${PAGE_SIZE}`, "New body one", "Old body one"]);
    expect(second.results.total).toBe(PAGE_SIZE + 3);
  });

  test("a page made only of body matches skips the title matches before it", async () => {
    await makeStory(t.db, { title: "Comet in the title" });
    for (let i = 0; i < PAGE_SIZE + 2; i++) await makeStory(t.db, { title: `Body ${i}`, summary: "a comet", publishDate: hoursAgo(i + 1) });
    const second = await searchStories(t.repos, "comet", 2);
    expect(second.results.items.map((s) => s.title)).toEqual([`Body ${PAGE_SIZE - 1}`, `Body ${PAGE_SIZE}`, `Body ${PAGE_SIZE + 1}`]);
  });

  test("many matches (read by walking the date index) and few (read whole, then ordered) give the same pages", async () => {
    await makeStory(t.db, { title: "Comet in the title", publishDate: hoursAgo(500) });
    for (let i = 0; i < PAGE_SIZE + 2; i++) await makeStory(t.db, { title: `Comet ${i}`, publishDate: hoursAgo(100 + i) });
    for (let i = 0; i < PAGE_SIZE + 2; i++) await makeStory(t.db, { title: `Body ${i}`, summary: "a comet", publishDate: hoursAgo(i + 1) });
    for (const offset of [0, PAGE_SIZE, 2 * PAGE_SIZE]) {
      const page = { limit: PAGE_SIZE, offset, countCap: 10_000 };
      const few = await t.repos.publicStories.search("comet", page);
      const many = await t.repos.publicStories.search("comet", { ...page, fewMatches: 0 });
      expect(many.stories.map((s) => s.title)).toEqual(few.stories.map((s) => s.title));
      expect(many.total).toBe(few.total);
    }
  });

  test("counts matches up to a cap and says so", async () => {
    for (let i = 0; i < 5; i++) await makeStory(t.db, { title: `Yak ${i}` });
    const capped = await t.repos.publicStories.search("yak", { limit: 2, offset: 0, countCap: 3 });
    expect(capped).toMatchObject({ total: 3, totalIsCapped: true });
    expect(capped.stories).toHaveLength(2);
    const exact = await t.repos.publicStories.search("yak", { limit: 2, offset: 0, countCap: 5 });
    expect(exact).toMatchObject({ total: 5, totalIsCapped: false });
  });
});

describe("a story's share card", () => {
  test("draws a published story's title and category, 'Uncategorized' without one, and nothing of a pending story", async () => {
    const category = await makeCategory(t.db, { name: "Animals" });
    const goat = await makeStory(t.db, { title: "Goat elected mayor", categoryId: category.id });
    const loose = await makeStory(t.db, { title: "Loose", categoryId: null });
    const pending = await makeStory(t.db, { title: "Pending", categoryId: category.id, status: "pending" });
    expect(await getStoryCard(t.repos, goat.id)).toEqual({ title: "Goat elected mayor", category: "Animals" });
    expect(await getStoryCard(t.repos, loose.id)).toEqual({ title: "Loose", category: "Uncategorized" });
    expect(await getStoryCard(t.repos, pending.id)).toBeNull();
    expect(await getStoryCard(t.repos, 987654)).toBeNull();
  });
});

describe("queries per page", () => {
  // A page's reads are a fixed handful however many categories and stories there are: no query per row.
  async function siteWith(categoryCount: number) {
    await t.database.exec("TRUNCATE stories, categories RESTART IDENTITY CASCADE");
    const made = [];
    for (let i = 0; i < categoryCount; i++) {
      const category = await makeCategory(t.db, { name: `Category ${i}`, slug: `category-${i}` });
      for (let j = 0; j < 3; j++) made.push(await makeStory(t.db, { title: `Story ${i}-${j} about a goat`, categoryId: category.id }));
    }
    return made;
  }

  test.each([
    ["the home page", async () => void (await getHome(t.repos))],
    ["a category page", async () => void (await getCategoryPage(t.repos, "category-0", 1))],
    ["a story page", async () => void (await getStoryPage(t.repos, (await t.repos.publicStories.latestForFeed({ limit: 1 }))[0]!.slug))],
  ])("%s makes as many queries with 12 categories as with 2", async (_page, render) => {
    await siteWith(2);
    const few = (await t.queriesOf(render)).length;
    await siteWith(12);
    const many = (await t.queriesOf(render)).length;
    expect(many).toBe(few);
    expect(many).toBeLessThanOrEqual(4);
  });

  test("with the categories kept, as the web process keeps them, the home page reads twice and a category page once or twice", async () => {
    await siteWith(12);
    const repos = { ...t.repos, categories: publicCategories(t.repos.categories, { freshMs: 60_000 }) };
    await listCategories(repos); // the header's read, which keeps them
    const home = await t.queriesOf(async () => void (await Promise.all([listCategories(repos), getHome(repos)])));
    expect(home).toHaveLength(2); // the featured story; each card's count and story
    const category = await t.queriesOf(async () => void (await getCategoryPage(repos, "category-0", 1)));
    expect(category).toHaveLength(2); // its count; its page
    expect((await getHome(repos)).cards).toHaveLength(12);
  });

  test("a category page read from its Older link's cursor makes as many queries as page 1, and so does a cursor that falls back", async () => {
    const category = await makeCategory(t.db, { name: "Deep", slug: "deep" });
    for (let i = 0; i < 3 * PAGE_SIZE; i++) await makeStory(t.db, { categoryId: category.id });
    const first = await getCategoryPage(t.repos, "deep", 1);
    const firstQueries = (await t.queriesOf(() => getCategoryPage(t.repos, "deep", 1))).length;
    let second: Awaited<ReturnType<typeof getCategoryPage>> | undefined;
    const cursored = await t.queriesOf(async () => void (second = await getCategoryPage(t.repos, "deep", 2, { after: first.cursors.older })));
    expect(second?.stories.items).toHaveLength(PAGE_SIZE);
    expect(cursored.length).toBe(firstQueries);
    expect(cursored.length).toBeLessThanOrEqual(4);
    // Falling back reads the page once more, by number.
    const stale = await t.queriesOf(() => getCategoryPage(t.repos, "deep", 2, { before: first.cursors.newer }));
    expect(stale.length).toBeLessThanOrEqual(4);
  });

  test("a search makes at most four queries, and a search with no result one more per word it checks the spelling of", async () => {
    await siteWith(12);
    for (const query of ["goat", "Story 3-1"]) expect((await t.queriesOf(() => searchStories(t.repos, query, 1))).length).toBeLessThanOrEqual(4);
    // "at" is too short to check: "nothing" and "all" are looked up.
    expect((await t.queriesOf(() => searchStories(t.repos, "nothing at all", 1))).length).toBeLessThanOrEqual(4 + 2);
  });
});
