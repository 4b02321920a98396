import { expect, test } from "vitest";
import { MAX_STORY_SLUG, slugify, storySlug } from "./slug";

test.each([
  ["Cat Runs For Mayor!", "cat-runs-for-mayor"],
  ["  Goat   eats  homework  ", "goat-eats-homework"],
  ["UFO's over Ohio? Yes.", "ufos-over-ohio-yes"],
  ["Already-hyphenated title", "already-hyphenated-title"],
  ["Tabs\tand\nnewlines", "tabs-and-newlines"],
  ["snake_case stays", "snake_case-stays"],
  ["Weird Science", "weird-science"],
  ["  Crime &  Courts ", "crime-courts"],
  ["Odd_Jobs 2026", "odd_jobs-2026"],
  ["UFOs!", "ufos"],
  ["! Leading and trailing ?", "leading-and-trailing"],
  ["Café naïve", "caf-nave"],
  ["crime--courts", "crime--courts"],
  ["-edge-", "-edge-"],
  ["", ""],
  ["?!", ""],
])("the slug of %j is %j", (text, slug) => {
  expect(slugify(text)).toBe(slug);
});

test.each(["crime-courts", "crime--courts", "-hi", "odd_jobs-2026", "a-b-", "story-1a2b3c4d"])(
  "a stored slug %j is its own slug, so slugging it again keeps its URL",
  (stored) => {
    expect(slugify(stored)).toBe(stored);
  },
);

test.each([
  ["Cat Runs For Mayor!", "cat-runs-for-mayor"],
  ["- Goat elected -", "goat-elected"],
  ["?!", "story"],
  ["", "story"],
  [`${"a".repeat(79)} b`, "a".repeat(79)],
  ["word ".repeat(30), "word-".repeat(16).slice(0, -1)],
])("the story slug of %j is %j", (title, slug) => {
  expect(storySlug(title)).toBe(slug);
  expect(storySlug(title).length).toBeLessThanOrEqual(MAX_STORY_SLUG);
});
