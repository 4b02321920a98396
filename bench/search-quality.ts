// Search quality on the query set of test/search-queries.ts: `npm run bench:search-quality`.
// Seeds the set's stories into the embedded server in a fresh temporary DATA_DIR, runs every
// query through the public search and prints recall, precision, the share of typos corrected and
// each query that missed. Figures: docs/benchmarks.md.
import { createRepos } from "~/db/repos";
import { runMigrations } from "~/db/migrate";
import { runSearchCases, SEARCH_QUERIES, seedSearchStories } from "~/test/search-queries";
import { openFreshDatabase } from "./fresh-database";

const { database, cleanup } = await openFreshDatabase("embedded", { pgUrl: "", name: "oddwire-bench-search-quality" });
try {
  await runMigrations(database);
  const keys = await seedSearchStories(database.db);
  const score = await runSearchCases(createRepos(database.db), keys);
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  process.stdout.write(`${SEARCH_QUERIES.length} queries over ${keys.size} stories\n`);
  process.stdout.write(`recall ${pct(score.recall)}  precision ${pct(score.precision)}  typos corrected ${pct(score.suggestions)}\n`);
  for (const miss of score.misses) process.stdout.write(`  ${miss}\n`);
} finally {
  await cleanup();
}
