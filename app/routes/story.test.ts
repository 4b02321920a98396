import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, test } from "vitest";
import { makeCategory, makeSource, makeStory } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { getStoryCard, getStoryPage } from "~/domain/public/public-site";
import { imageUrlHash, storyCardPath } from "~/lib/story-image";
import type { Route } from "./+types/story";
import Story, { meta } from "./story";

const t = testDatabaseForFile();
const SITE_URL = "https://oddwire.test";

/** The story page's meta tags, as the page renders them for a published story. */
async function metaOf(slug: string) {
  const page = await getStoryPage(t.repos, slug);
  const tags = meta({ data: page, matches: [{ id: "routes/public-layout", data: { siteUrl: SITE_URL } }] } as unknown as Route.MetaArgs) as Record<
    string,
    unknown
  >[];
  const content = (key: "property" | "name", value: string) => tags.find((tag) => tag[key] === value)?.content;
  const jsonLd = tags.find((tag) => "script:ld+json" in tag)?.["script:ld+json"] as { image: string[] };
  return {
    image: content("property", "og:image"),
    width: content("property", "og:image:width"),
    height: content("property", "og:image:height"),
    twitterImage: content("name", "twitter:image"),
    jsonLdImage: jsonLd.image,
  };
}

describe("the picture a story page shares", () => {
  test("is the story's share card when it has no picture, at the address the image route serves", async () => {
    const category = await makeCategory(t.db, { name: "Animals" });
    const story = await makeStory(t.db, { title: "Goat elected mayor", imageUrl: null, categoryId: category.id });
    const card = await getStoryCard(t.repos, story.id);
    const url = `${SITE_URL}${storyCardPath({ id: story.id, ...card! }, SITE_URL)}`;
    expect(url).toMatch(/\/img\/\d+\/card-[0-9a-f]{8}\.png$/);
    expect(await metaOf(story.slug)).toEqual({ image: url, width: "1200", height: "630", twitterImage: url, jsonLdImage: [url] });
  });

  test("names a story without a category as the card draws it", async () => {
    const story = await makeStory(t.db, { title: "Nobody knows where this goes", imageUrl: null, categoryId: null });
    const url = `${SITE_URL}${storyCardPath({ id: story.id, title: story.title, category: "Uncategorized" }, SITE_URL)}`;
    expect((await metaOf(story.slug)).image).toBe(url);
  });

  test("is the share card when the story's picture is known to be under 600 px wide", async () => {
    const category = await makeCategory(t.db, { name: "Animals" });
    const story = await makeStory(t.db, { title: "Tiny goat", imageUrl: "https://cdn.example/tiny.jpg", imageWidth: 599, imageHeight: 400, categoryId: category.id });
    const url = `${SITE_URL}${storyCardPath({ id: story.id, title: "Tiny goat", category: "Animals" }, SITE_URL)}`;
    expect(await metaOf(story.slug)).toEqual({ image: url, width: "1200", height: "630", twitterImage: url, jsonLdImage: [url] });
  });

  test("is the picture's 1200 px JPEG when the story has one", async () => {
    const photo = "https://cdn.example/goat.jpg";
    const story = await makeStory(t.db, { imageUrl: photo });
    const url = `${SITE_URL}/img/${story.id}/${imageUrlHash(photo)}/1200.jpg`;
    expect(await metaOf(story.slug)).toEqual({ image: url, width: "1200", height: "675", twitterImage: url, jsonLdImage: [url] });
  });
});

/** The story page's byline as it reads, and its JSON-LD publication date. */
async function bylineOf(slug: string) {
  const page = await getStoryPage(t.repos, slug);
  const html = renderToStaticMarkup(
    createElement(MemoryRouter, null, createElement(Story, { loaderData: { ...page!, related: [] } } as unknown as Route.ComponentProps)),
  );
  const byline = /<h1[^>]*>.*?<\/h1><p[^>]*>(.*?)<\/p>/.exec(html)?.[1] ?? "";
  const tags = meta({ data: page, matches: [{ id: "routes/public-layout", data: { siteUrl: SITE_URL } }] } as unknown as Route.MetaArgs) as Record<string, unknown>[];
  const jsonLd = tags.find((tag) => "script:ld+json" in tag)?.["script:ld+json"] as { datePublished: string };
  return { text: byline.replace(/<[^>]+>/g, ""), html: byline, datePublished: jsonLd.datePublished };
}

describe("the date a story page shows", () => {
  test("says when the source reported the story, while the page's own publication date stays ours", async () => {
    const source = await makeSource(t.db, { name: "Odd Times" });
    const story = await makeStory(t.db, {
      sourceId: source.id,
      publishDate: new Date("2026-11-26T09:00:00Z"),
      sourcePublishedAt: new Date("2026-11-20T07:30:00Z"),
    });

    const byline = await bylineOf(story.slug);

    expect(byline.text).toBe("Nov 26, 2026 · Reported by Odd Times on Nov 20, 2026");
    expect(byline.html).toContain('<time dateTime="2026-11-20T07:30:00.000Z">Nov 20, 2026</time>');
    expect(byline.datePublished).toBe("2026-11-26T09:00:00.000Z");
  });

  test("names the source's site when the story came in without a source", async () => {
    const story = await makeStory(t.db, {
      originalUrl: "https://www.odd.example/goat",
      publishDate: new Date("2026-11-26T09:00:00Z"),
      sourcePublishedAt: new Date("2026-11-19T23:00:00Z"),
    });
    expect((await bylineOf(story.slug)).text).toBe("Nov 26, 2026 · Reported by odd.example on Nov 19, 2026");
  });

  test("without the source's date, shows our date and the source as before", async () => {
    const source = await makeSource(t.db, { name: "Odd Times" });
    const story = await makeStory(t.db, { sourceId: source.id, publishDate: new Date("2026-11-26T09:00:00Z") });
    expect((await bylineOf(story.slug)).text).toBe("Nov 26, 2026 · via Odd Times");
  });
});
