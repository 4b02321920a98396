import { XMLParser, XMLValidator } from "fast-xml-parser";
import { eq, inArray } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { stories } from "~/db/schema";
import { makeCategory, makeRejectedStory, makeStory } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { imageUrlHash } from "~/lib/story-image";
import { categoryRss, newsSitemap, pagesSitemap, sitemapIndex, siteRss, storiesSitemap } from "./feeds";
import { buildRobotsTxt } from "./sitemap";

const t = testDatabaseForFile();
const SITE = "https://oddwire.test";
const NOW = new Date();
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000);

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@", isArray: (name) => ["item", "url", "sitemap"].includes(name) });

type Node = Record<string, unknown>;
function read(xml: string): Record<string, Node> {
  expect(XMLValidator.validate(xml)).toBe(true);
  return parser.parse(xml) as Record<string, Node>;
}

/** The titles of an RSS feed's items, in order. */
const rssTitles = (xml: string) => ((read(xml).rss?.channel as Node).item as Node[] | undefined)?.map((i) => String(i.title)) ?? [];
/** The locations of a urlset or news sitemap, in order. */
const urlLocs = (xml: string) => ((read(xml).urlset?.url as Node[] | undefined) ?? []).map((u) => String(u.loc));
/** The locations listed in a sitemap index, in order. */
const indexLocs = (xml: string) => ((read(xml).sitemapindex?.sitemap as Node[] | undefined) ?? []).map((s) => String(s.loc));

async function hiddenStories() {
  await makeStory(t.db, { title: "Pending secret", slug: "pending-secret", status: "pending", publishDate: hoursAgo(1) });
  await makeStory(t.db, { title: "Rejected secret", slug: "rejected-secret", status: "rejected", publishDate: hoursAgo(1) });
  await makeRejectedStory(t.db, { title: "Rejected table secret" });
}

describe("unpublished stories", () => {
  test("never appear in any feed or sitemap", async () => {
    const category = await makeCategory(t.db, { name: "Animals", slug: "animals" });
    await makeStory(t.db, { title: "Public goat", slug: "public-goat", categoryId: category.id, publishDate: hoursAgo(2) });
    await makeStory(t.db, { title: "Pending cat", slug: "pending-cat", categoryId: category.id, status: "pending", publishDate: hoursAgo(1) });
    await makeStory(t.db, { title: "Rejected dog", slug: "rejected-dog", categoryId: category.id, status: "rejected", publishDate: hoursAgo(1) });
    await makeRejectedStory(t.db, { title: "Rejected table secret" });

    const outputs = [
      await siteRss(t.repos, SITE),
      await categoryRss(t.repos, SITE, "animals"),
      await sitemapIndex(t.repos, SITE, 1),
      await storiesSitemap(t.repos, SITE, 1, 1),
      await newsSitemap(t.repos, SITE, NOW),
    ];
    for (const xml of outputs) {
      expect(xml).not.toMatch(/Pending cat|pending-cat|Rejected dog|rejected-dog|Rejected table secret/);
    }
    expect(rssTitles(outputs[0]!)).toEqual(["Public goat"]);
    expect(indexLocs(outputs[2]!)).toEqual([`${SITE}/sitemaps/pages.xml`, `${SITE}/sitemaps/stories/1.xml`, `${SITE}/sitemaps/news.xml`]);
    expect(urlLocs(outputs[3]!)).toEqual([`${SITE}/story/public-goat`]);
    expect(await storiesSitemap(t.repos, SITE, 2, 1)).toBeNull();
  });
});

describe("the site RSS feed", () => {
  test("has the latest 50 published stories, newest first", async () => {
    for (let i = 60; i >= 1; i--) await makeStory(t.db, { title: `Story ${i}`, publishDate: hoursAgo(i) });
    await hiddenStories();

    const titles = rssTitles(await siteRss(t.repos, SITE));
    expect(titles).toEqual(Array.from({ length: 50 }, (_, i) => `Story ${i + 1}`));
  });

  test("describes itself, links to its stories' pages and carries their images", async () => {
    const goat = await makeStory(t.db, { title: "Goat", slug: "goat", imageUrl: "/demo/goat.svg", publishDate: hoursAgo(1) });
    const photo = "https://cdn.example/llama.jpg";
    const llama = await makeStory(t.db, { title: "Llama", slug: "llama", imageUrl: photo, publishDate: hoursAgo(2) });
    const channel = read(await siteRss(t.repos, SITE)).rss?.channel as Node;
    expect(channel).toMatchObject({
      title: "Oddwire",
      link: `${SITE}/`,
      language: "en",
      "atom:link": { "@href": `${SITE}/rss.xml`, "@rel": "self" },
    });
    expect((channel.item as Node[])[0]).toMatchObject({
      link: `${SITE}/story/goat`,
      enclosure: { "@url": `${SITE}/img/${goat.id}/${imageUrlHash("/demo/goat.svg")}/1200.jpg`, "@type": "image/jpeg", "@length": "0" },
    });
    // A picture from another site is served by the site: its 1200 px JPEG.
    expect((channel.item as Node[])[1]).toMatchObject({
      link: `${SITE}/story/llama`,
      enclosure: { "@url": `${SITE}/img/${llama.id}/${imageUrlHash(photo)}/1200.jpg`, "@type": "image/jpeg", "@length": "0" },
    });
  });

  test("is a valid empty channel when nothing is published", async () => {
    await hiddenStories();
    expect(rssTitles(await siteRss(t.repos, SITE))).toEqual([]);
  });
});

describe("a category RSS feed", () => {
  test("has only that category's published stories, newest first, and links to the category page", async () => {
    const animals = await makeCategory(t.db, { name: "Animals", slug: "animals" });
    const space = await makeCategory(t.db, { name: "Space", slug: "space" });
    await makeStory(t.db, { title: "Old goat", categoryId: animals.id, publishDate: hoursAgo(5) });
    await makeStory(t.db, { title: "New llama", categoryId: animals.id, publishDate: hoursAgo(1) });
    await makeStory(t.db, { title: "Moon cheese", categoryId: space.id, publishDate: hoursAgo(2) });
    await makeStory(t.db, { title: "Pending cat", categoryId: animals.id, status: "pending" });

    const xml = await categoryRss(t.repos, SITE, "animals");
    expect(rssTitles(xml!)).toEqual(["New llama", "Old goat"]);
    expect(read(xml!).rss?.channel).toMatchObject({
      title: "Oddwire: Animals",
      link: `${SITE}/category/animals`,
      "atom:link": { "@href": `${SITE}/category/animals/rss.xml` },
    });
  });

  test("of an unknown category is null", async () => {
    expect(await categoryRss(t.repos, SITE, "no-such-category")).toBeNull();
  });
});

/** `count` published stories, oldest id first. */
async function publishedStories(count: number) {
  const made = [];
  for (let i = 0; i < count; i++) made.push(await makeStory(t.db, { slug: `story-${i + 1}`, publishDate: hoursAgo(i + 1) }));
  return made;
}

const storySitemapLocs = (pages: number[]) => pages.map((n) => `${SITE}/sitemaps/stories/${n}.xml`);

describe("the sitemap index", () => {
  test("lists the pages sitemap, one sitemap per range of story ids, and the news sitemap", async () => {
    await publishedStories(5);
    await hiddenStories();

    expect(indexLocs(await sitemapIndex(t.repos, SITE, 2))).toEqual([
      `${SITE}/sitemaps/pages.xml`,
      ...storySitemapLocs([1, 2, 3]),
      `${SITE}/sitemaps/news.xml`,
    ]);
    expect(indexLocs(await sitemapIndex(t.repos, SITE, 5))).toHaveLength(3);
    expect(indexLocs(await sitemapIndex(t.repos, SITE))).toContain(`${SITE}/sitemaps/stories/1.xml`);
  });

  test("lists exactly the ranges of ids that hold a published story", async () => {
    const made = await publishedStories(12);
    // Ranges of 2: ids 3-4 unpublished, 5-6 deleted, 9-10 pending, 11 rejected with 12 published.
    await t.db.update(stories).set({ status: "rejected" }).where(inArray(stories.id, [made[2]!.id, made[3]!.id, made[10]!.id]));
    await t.db.delete(stories).where(inArray(stories.id, [made[4]!.id, made[5]!.id]));
    await t.db.update(stories).set({ status: "pending" }).where(inArray(stories.id, [made[8]!.id, made[9]!.id]));
    await hiddenStories();

    const locs = indexLocs(await sitemapIndex(t.repos, SITE, 2));
    expect(locs).toEqual([`${SITE}/sitemaps/pages.xml`, ...storySitemapLocs([1, 4, 6]), `${SITE}/sitemaps/news.xml`]);
    for (const n of [1, 4, 6]) expect(await storiesSitemap(t.repos, SITE, n, 2), `page ${n}`).not.toBeNull();
    for (const n of [2, 3, 5, 7, 8]) expect(await storiesSitemap(t.repos, SITE, n, 2), `page ${n}`).toBeNull();
  });

  test("lists no story sitemap when nothing is published", async () => {
    await hiddenStories();
    expect(indexLocs(await sitemapIndex(t.repos, SITE))).toEqual([`${SITE}/sitemaps/pages.xml`, `${SITE}/sitemaps/news.xml`]);
  });
});

describe("the story sitemaps", () => {
  test("split the published stories into pages by id, each story once, with its last change as lastmod", async () => {
    const updated = new Date("2025-03-04T05:06:07.000Z");
    for (let i = 0; i < 5; i++) await makeStory(t.db, { slug: `story-${i}`, publishDate: hoursAgo(i + 1), updatedAt: updated });
    await hiddenStories();

    const pages = [await storiesSitemap(t.repos, SITE, 1, 2), await storiesSitemap(t.repos, SITE, 2, 2), await storiesSitemap(t.repos, SITE, 3, 2)];
    const locs = pages.map((xml) => urlLocs(xml!));
    expect(locs).toEqual([
      [`${SITE}/story/story-0`, `${SITE}/story/story-1`],
      [`${SITE}/story/story-2`, `${SITE}/story/story-3`],
      [`${SITE}/story/story-4`],
    ]);
    expect((read(pages[0]!).urlset?.url as Node[])[0]).toMatchObject({ lastmod: "2025-03-04T05:06:07Z" });
  });

  test("name any slug and each story's own last change, to the second", async () => {
    const slugs = ["a, b", 'quote-"-and-\\', "tab\there", "røros-ørret"];
    const times = ["2025-03-04T05:06:07.999Z", "1999-12-31T23:59:59.001Z", "2030-01-01T00:00:00.000Z", "2025-03-04T05:06:08.500Z"];
    for (const [i, slug] of slugs.entries()) await makeStory(t.db, { slug, updatedAt: new Date(times[i]!) });

    const urls = read((await storiesSitemap(t.repos, SITE, 1, 10))!).urlset?.url as Node[];
    expect(urls.map((u) => [u.loc, u.lastmod])).toEqual([
      [`${SITE}/story/a%2C%20b`, "2025-03-04T05:06:07Z"],
      [`${SITE}/story/quote-%22-and-%5C`, "1999-12-31T23:59:59Z"],
      [`${SITE}/story/tab%09here`, "2030-01-01T00:00:00Z"],
      [`${SITE}/story/r%C3%B8ros-%C3%B8rret`, "2025-03-04T05:06:08Z"],
    ]);
  });

  test("keep each story on its page when earlier stories are unpublished or deleted", async () => {
    const made = await publishedStories(9);
    const pageOf = async (n: number) => urlLocs((await storiesSitemap(t.repos, SITE, n, 3))!);
    const before = [await pageOf(1), await pageOf(2), await pageOf(3)];

    await t.db.update(stories).set({ status: "rejected" }).where(eq(stories.id, made[0]!.id));
    await t.db.delete(stories).where(eq(stories.id, made[1]!.id));
    await t.db.update(stories).set({ status: "pending" }).where(eq(stories.id, made[3]!.id));

    expect(await pageOf(1)).toEqual([`${SITE}/story/story-3`]);
    expect(await pageOf(2)).toEqual(before[1]!.filter((loc) => loc !== `${SITE}/story/story-4`));
    expect(await pageOf(3)).toEqual(before[2]);
  });

  test("hold at most a page size of stories, in id order", async () => {
    await publishedStories(7);
    const sizes = [];
    for (let n = 1; n <= 3; n++) sizes.push(urlLocs((await storiesSitemap(t.repos, SITE, n, 3))!).length);
    expect(sizes).toEqual([3, 3, 1]);
  });

  test.each([0, -1, 4, 1.5, Number.NaN, 999_999_999])("page %s, out of range, is null", async (n) => {
    for (let i = 0; i < 5; i++) await makeStory(t.db);
    expect(await storiesSitemap(t.repos, SITE, n, 2)).toBeNull();
  });
});

describe("the pages sitemap", () => {
  test("lists home, the site map, contact and legal pages, and every category page", async () => {
    await makeCategory(t.db, { slug: "animals", displayOrder: 2 });
    await makeCategory(t.db, { slug: "space", displayOrder: 1 });
    expect(urlLocs(await pagesSitemap(t.repos, SITE))).toEqual([
      `${SITE}/`,
      `${SITE}/sitemap`,
      `${SITE}/contact-us`,
      `${SITE}/terms-of-service`,
      `${SITE}/privacy-policy`,
      `${SITE}/cookie-policy`,
      `${SITE}/accessibility-statement`,
      `${SITE}/category/space`,
      `${SITE}/category/animals`,
    ]);
  });
});

describe("the news sitemap", () => {
  test("has only published stories of the last 48 hours, newest first, with their titles and dates", async () => {
    await makeStory(t.db, { title: "Fresh", slug: "fresh", publishDate: hoursAgo(1) });
    await makeStory(t.db, { title: "Yesterday", slug: "yesterday", publishDate: hoursAgo(30) });
    await makeStory(t.db, { title: "Too old", slug: "too-old", publishDate: hoursAgo(49) });
    await makeStory(t.db, { title: "Not yet", slug: "not-yet", publishDate: hoursAgo(-2) });
    await hiddenStories();

    const xml = await newsSitemap(t.repos, SITE, NOW);
    expect(urlLocs(xml)).toEqual([`${SITE}/story/fresh`, `${SITE}/story/yesterday`]);
    expect((read(xml).urlset?.url as Node[])[0]).toMatchObject({
      "news:news": {
        "news:publication": { "news:name": "Oddwire", "news:language": "en" },
        "news:title": "Fresh",
        "news:publication_date": hoursAgo(1).toISOString().replace(/\.\d{3}Z$/, "Z"),
      },
    });
  });
});

describe("robots.txt", () => {
  test("points crawlers at the sitemap index", () => {
    expect(buildRobotsTxt({ siteUrl: SITE })).toContain(`Sitemap: ${SITE}/sitemap.xml`);
  });
});
