import { expect, test } from "vitest";
import { storySlug } from "./slug";

test.each([
  ["Cat Runs For Mayor!", "cat-runs-for-mayor"],
  ["  Goat   eats  homework  ", "goat-eats-homework"],
  ["UFO's over Ohio? Yes.", "ufos-over-ohio-yes"],
  ["Already-hyphenated title", "already-hyphenated-title"],
  ["Tabs\tand\nnewlines", "tabs-and-newlines"],
  ["snake_case stays", "snake_case-stays"],
])("the slug of %j is %j", (title, slug) => {
  expect(storySlug(title)).toBe(slug);
});
