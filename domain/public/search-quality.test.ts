import { expect, test } from "vitest";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { runSearchCases, SEARCH_QUERIES, seedSearchStories } from "~/test/search-queries";

// The measured floor of search quality on the query set of test/search-queries.ts (figures:
// `npm run bench:search-quality`, docs/benchmarks.md): what readers type (plurals, accents, several
// words, quotes, typos) finds what they mean, and the markup of stored HTML is never matched.
const t = testDatabaseForFile();

test("the query set has at least 50 queries of every kind", () => {
  expect(SEARCH_QUERIES.length).toBeGreaterThanOrEqual(50);
  expect(new Set(SEARCH_QUERIES.map((c) => c.kind))).toEqual(
    new Set(["plural", "singular", "stem", "accent", "multi-word", "quoted", "rare", "common", "substring", "case", "markup", "typo"]),
  );
});

test("recall is at least 95%, precision at least 95%, and every typo gets its correction", async () => {
  const keys = await seedSearchStories(t.db);
  const score = await runSearchCases(t.repos, keys);
  expect({ recall: score.recall >= 0.95, precision: score.precision >= 0.95, suggestions: score.suggestions, misses: score.misses }).toEqual({
    recall: true,
    precision: true,
    suggestions: 1,
    misses: [],
  });
});
