import { describe, expect, test } from "vitest";
import { makeStory } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { SEARCH_MAX_LENGTH, searchQueryFrom, searchStories, suggestStories } from "./public-site";

const t = testDatabaseForFile();

describe("the search query's cap", () => {
  test.each([
    ["a short query, trimmed", "  goat  ", "goat"],
    ["nothing", null, ""],
    ["exactly the limit", "g".repeat(SEARCH_MAX_LENGTH), "g".repeat(SEARCH_MAX_LENGTH)],
    ["a 14 KB word, cut to the limit", "g".repeat(14_000), "g".repeat(SEARCH_MAX_LENGTH)],
    ["a cut that leaves trailing space, trimmed", `goat${" ".repeat(300)}mayor`, "goat"],
    ["characters outside the BMP, never cut in half", "🐐".repeat(250), "🐐".repeat(SEARCH_MAX_LENGTH)],
  ])("%s", (_name, raw, expected) => {
    expect(searchQueryFrom(raw)).toBe(expected);
  });

  test("search reads only the first 200 characters of a longer query, and says so by the query it shows", async () => {
    await makeStory(t.db, { title: "Goat elected mayor" });
    const result = await searchStories(t.repos, `goat${" ".repeat(300)}zeppelin`, 1);
    expect(result.query).toBe("goat");
    expect(result.results.items.map((s) => s.title)).toEqual(["Goat elected mayor"]);

    const long = await searchStories(t.repos, "x".repeat(14_000), 1);
    expect(long.query).toHaveLength(SEARCH_MAX_LENGTH);
    expect(long.results.total).toBe(0);
  });

  test("'Did you mean' looks up words of up to 40 characters and leaves longer ones as typed", async () => {
    const long = "zeppelinologistically".repeat(2);
    expect(long.length).toBe(42);
    await makeStory(t.db, { title: `Raccoon ${long}` });
    expect((await searchStories(t.repos, "racoon", 1)).didYouMean).toBe("raccoon");
    // One letter off, but too long to look up.
    expect((await searchStories(t.repos, `${long.slice(0, -1)}x`, 1)).didYouMean).toBeNull();
  });

  test("suggestions read the same capped query", async () => {
    await makeStory(t.db, { title: "Goat elected mayor" });
    expect((await suggestStories(t.repos, `goat${" ".repeat(300)}zeppelin`)).map((s) => s.title)).toEqual(["Goat elected mayor"]);
    expect(await suggestStories(t.repos, "g".repeat(14_000))).toEqual([]);
  });
});
