import { describe, expect, test } from "vitest";
import { makeCategory, makeSource, makeStory } from "~/db/testing/factories";
import { useTestDatabase } from "~/db/testing/test-database";
import { LATEST_STORIES_LIMIT, listLatestStories } from "./latest-stories";

const t = useTestDatabase();
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

describe("listLatestStories", () => {
  test("returns only published stories", async () => {
    const published = await makeStory(t.db, { status: "published" });
    await makeStory(t.db, { status: "pending" });
    await makeStory(t.db, { status: "pending", publishDate: daysAgo(0) });

    const latest = await listLatestStories(t.repos);
    expect(latest.map((s) => s.id)).toEqual([published.id]);
  });

  test("puts the newest publish date first, whatever the order of insertion", async () => {
    const middle = await makeStory(t.db, { publishDate: daysAgo(2) });
    const oldest = await makeStory(t.db, { publishDate: daysAgo(30) });
    const newest = await makeStory(t.db, { publishDate: daysAgo(0.5) });

    const latest = await listLatestStories(t.repos);
    expect(latest.map((s) => s.id)).toEqual([newest.id, middle.id, oldest.id]);
    expect(latest[0]?.publishDate).toBe(newest.publishDate?.toISOString());
  });

  test("of stories published at the same moment, shows the later one first", async () => {
    const moment = daysAgo(1);
    const earlier = await makeStory(t.db, { publishDate: moment });
    const later = await makeStory(t.db, { publishDate: moment });

    const latest = await listLatestStories(t.repos);
    expect(latest.map((s) => s.id)).toEqual([later.id, earlier.id]);
  });

  test("respects the limit, keeping the newest", async () => {
    const made = [];
    for (let day = 0; day < 5; day++) made.push(await makeStory(t.db, { publishDate: daysAgo(day) }));

    const latest = await listLatestStories(t.repos, 3);
    expect(latest.map((s) => s.id)).toEqual(made.slice(0, 3).map((s) => s.id));
  });

  test(`returns at most ${LATEST_STORIES_LIMIT} stories by default`, async () => {
    for (let i = 0; i < LATEST_STORIES_LIMIT + 2; i++) await makeStory(t.db);
    expect(await listLatestStories(t.repos)).toHaveLength(LATEST_STORIES_LIMIT);
  });

  test("carries the category and source names, 'Uncategorized' without a category", async () => {
    const category = await makeCategory(t.db, { name: "Animals", slug: "animals" });
    const source = await makeSource(t.db, { name: "Odd Planet Wire" });
    const filed = await makeStory(t.db, { categoryId: category.id, sourceId: source.id, publishDate: daysAgo(1) });
    const loose = await makeStory(t.db, { categoryId: null, sourceId: null, publishDate: daysAgo(2) });

    const [first, second] = await listLatestStories(t.repos);
    expect(first).toMatchObject({
      id: filed.id,
      category: "Animals",
      categorySlug: "animals",
      sourceName: "Odd Planet Wire",
    });
    expect(second).toMatchObject({ id: loose.id, category: "Uncategorized", categorySlug: null, sourceName: null });
  });

  test("gives each story its public shape", async () => {
    const story = await makeStory(t.db, {
      title: "Goat elected honorary mayor",
      originalUrl: "https://news.example/goat",
      imageUrl: "/demo/goat.svg",
      isFeatured: true,
    });

    const [shown] = await listLatestStories(t.repos);
    expect(shown).toEqual({
      id: story.id,
      title: "Goat elected honorary mayor",
      summary: story.summary,
      imageUrl: "/demo/goat.svg",
      sourceUrl: "https://news.example/goat",
      sourceName: null,
      category: "Uncategorized",
      categorySlug: null,
      slug: story.slug,
      publishDate: story.publishDate?.toISOString(),
      isFeatured: true,
    });
  });

  test("is empty when nothing is published", async () => {
    await makeStory(t.db, { status: "pending" });
    expect(await listLatestStories(t.repos)).toEqual([]);
  });
});
