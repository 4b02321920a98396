import { describe, expect, test } from "vitest";
import { toPublicStory, type StoryForPublic } from "./public-story";

const base: StoryForPublic = {
  id: 1,
  title: "Goat elected honorary mayor",
  summary: "It ran unopposed.",
  imageUrl: "/demo/goat.svg",
  originalUrl: "https://news.example.com/goat",
  sourceUrl: "https://feeds.example.com/item/1",
  slug: "goat-elected-honorary-mayor",
  publishDate: new Date("2025-03-04T05:06:07Z"),
  isFeatured: true,
  categoryName: "Animals",
  categorySlug: "animals",
  sourceName: "Odd Planet",
};

describe("the public mapping of a story", () => {
  test.each([
    ["the original URL when there is one", {}, "https://news.example.com/goat"],
    ["the source URL when the original is missing", { originalUrl: null }, "https://feeds.example.com/item/1"],
    ["the source URL when the original is blank", { originalUrl: "  " }, "https://feeds.example.com/item/1"],
    ["'#' when both are missing", { originalUrl: null, sourceUrl: null }, "#"],
    ["never a javascript: link", { originalUrl: "javascript:alert(1)", sourceUrl: null }, "#"],
  ])("links to %s", (_case, overrides, expected) => {
    expect(toPublicStory({ ...base, ...overrides }).sourceUrl).toBe(expected);
  });

  test.each([
    ["its category name", { categoryName: "Animals" }, "Animals"],
    ["'Uncategorized' without a category", { categoryName: null }, "Uncategorized"],
    ["'Uncategorized' with a blank category name", { categoryName: "" }, "Uncategorized"],
  ])("shows %s", (_case, overrides, expected) => {
    expect(toPublicStory({ ...base, ...overrides }).category).toBe(expected);
  });

  test("isFeatured defaults to false", () => {
    expect(toPublicStory({ ...base, isFeatured: null }).isFeatured).toBe(false);
    expect(toPublicStory(base).isFeatured).toBe(true);
  });

  test("a missing image is null, so the page shows the logo", () => {
    expect(toPublicStory({ ...base, imageUrl: null }).imageUrl).toBeNull();
    expect(toPublicStory({ ...base, imageUrl: "" }).imageUrl).toBeNull();
  });

  test("carries id, title, summary, slug and the publish date as ISO text", () => {
    expect(toPublicStory(base)).toMatchObject({
      id: 1,
      title: "Goat elected honorary mayor",
      summary: "It ran unopposed.",
      slug: "goat-elected-honorary-mayor",
      publishDate: "2025-03-04T05:06:07.000Z",
    });
  });
});
