import { describe, expect, test } from "vitest";
import { composeMessage, HASHTAGS, storyLink, summaryExcerpt } from "./compose";

const SITE = "https://oddwire.test/";

describe("a Facebook post's message", () => {
  test("is the title, the summary, a 'Read more' line to the category page and three fixed hashtags", () => {
    const message = composeMessage({ title: "Goat elected mayor", summary: "A goat won the vote.", slug: "goat", categorySlug: "animals" }, SITE);
    expect(message).toBe("Goat elected mayor\n\nA goat won the vote.\n\nRead more: https://oddwire.test/category/animals\n\n#WeirdNews #Oddwire #StrangeButTrue");
    expect(HASHTAGS).toHaveLength(3);
  });

  test("reads more on the home page when the story has no category, and has no empty summary paragraph", () => {
    expect(composeMessage({ title: "Goat", summary: "  ", slug: "goat", categorySlug: null }, SITE)).toBe(
      "Goat\n\nRead more: https://oddwire.test/\n\n#WeirdNews #Oddwire #StrangeButTrue",
    );
  });

  test.each([
    ["a.".repeat(100), "a.".repeat(100)],
    ["x".repeat(201), `${"x".repeat(200)}…`],
    ["word ".repeat(60), `${"word ".repeat(40).trimEnd()}…`],
    ["  spaced\n\nout  ", "spaced out"],
    [null, ""],
  ])("takes the first 200 characters of the summary: %#", (summary, expected) => {
    expect(summaryExcerpt(summary)).toBe(expected);
  });

  test("links to the story's own page on the site", () => {
    expect(storyLink(SITE, "goat-elected-mayor")).toBe("https://oddwire.test/story/goat-elected-mayor");
  });
});
