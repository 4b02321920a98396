import { describe, expect, test } from "vitest";
import { makeCategory, makeStory } from "~/db/testing/factories";
import { useTestDatabase } from "~/db/testing/test-database";
import { getStoryCard, getStoryPage } from "~/domain/public/public-site";
import { imageUrlHash, storyCardPath } from "~/lib/story-image";
import type { Route } from "./+types/story";
import { meta } from "./story";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a Vitest fixture named like a hook, not a React hook
const t = useTestDatabase();
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
