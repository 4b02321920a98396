// Fills a freshly migrated database with many published stories, fast: categories and sources
// through Drizzle, stories with one set-based INSERT ... SELECT FROM generate_series per batch, run
// side by side on PostgreSQL, with the stories' indexes dropped during the load and built again after
// it (as a bulk load is done). Used by the benchmarks in bench/; never by the application.
import os from "node:os";
import { sql } from "drizzle-orm";
import type { Database } from "~/db/client";
import { categories, sources } from "~/db/schema";
import { DEFAULT_CATEGORIES } from "~/domain/categories/default-categories";
import { eachLimit } from "~/lib/each-limit";

/** In roughly a third of the titles ("cat"). */
export const COMMON_WORD = "cat";
/** In exactly ten stories, whatever the size ("zeppelin"). */
export const RARE_WORD = "zeppelin";

// The site's own categories, plus four so that the category bar is as long as a grown site's.
export const BENCH_CATEGORIES = [
  ...DEFAULT_CATEGORIES,
  { name: "Weather", slug: "weather" },
  { name: "Travel", slug: "travel" },
  { name: "Money", slug: "money" },
  { name: "Royalty & Politics", slug: "royalty-politics" },
] as const;

const BENCH_SOURCES = [
  { name: "Odd Planet Wire", host: "oddplanet.example" },
  { name: "The Daily Peculiar", host: "dailypeculiar.example" },
  { name: "Strange Times Gazette", host: "strangetimes.example" },
  { name: "Bizarre Bulletin", host: "bizarrebulletin.example" },
] as const;

// Word lists; the lengths are distinct so that the combinations vary. None contains the common or
// the rare word (checked below), so the search hits are exactly the rows built to have them.
const ADJECTIVES = ["Mysterious", "Giant", "Tiny", "Runaway", "Glowing", "Haunted", "Dancing", "Singing", "Invisible", "Ancient", "Stubborn", "Lost", "Flying", "Sleepy", "Furious", "Polite", "Enormous"];
const SUBJECTS = ["goat", "pensioner", "parrot", "robot", "mayor", "tortoise", "farmer", "raccoon", "vending machine", "librarian", "octopus", "llama", "snowman", "pumpkin", "pigeon", "ferret", "astronaut", "gnome", "emu"];
const VERBS = ["steals", "rescues", "befriends", "outruns", "swallows", "paints", "builds", "finds", "hides", "wins", "loses", "sues", "marries", "haunts", "escapes from", "guards", "borrows", "buries", "adopts", "ignores", "chases", "climbs", "sells"];
const OBJECTS = ["a lawnmower", "the town hall", "a wedding cake", "a police car", "a fire truck", "a bag of gold coins", "a museum statue", "the mayor's hat", "a hot-air balloon", "a library book", "a tractor", "a lighthouse", "a giant pizza", "a submarine", "a bicycle", "a sandcastle", "a parking meter", "a church bell", "a cruise ship"];
const PLACES = ["Ohio", "Norway", "a small Welsh village", "Tokyo", "rural Queensland", "Bavaria", "Nebraska", "a Scottish island", "Lisbon", "Manitoba", "Kyoto", "Cornwall", "New Mexico", "Sicily", "Iceland", "Patagonia", "Tasmania", "the Yukon", "Gdansk", "Oaxaca", "Provence", "Hokkaido", "Tallinn", "Galway", "Marrakesh", "Bruges", "Quebec", "Vermont", "Jutland"];
const SENTENCES = [
  "Neighbours say they first noticed something odd early on a quiet Sunday morning.",
  "Local officials have not yet said whether any rules were broken.",
  "Witnesses described the scene as both alarming and strangely charming.",
  "A spokesperson for the council said the matter was being looked into with some urgency.",
  "Videos of the incident have since been shared thousands of times online.",
  "Experts warn that such events are rare but not unheard of in the region.",
  "The owner, who asked not to be named, said it had never happened before.",
  "Police confirmed they attended but made no arrests.",
  "By the afternoon a small crowd had gathered to watch.",
  "Residents are now planning a festival to mark the occasion every year.",
  "A local historian said the town had seen stranger things in the past.",
  "Insurance companies are reportedly still arguing about who should pay.",
  "The story has drawn visitors from several neighbouring towns.",
];

const SUBJECT_EVERY = 3; // subject = the common word when i % 3 = 0: a third of the titles
const RARE_STORIES = 10;

const forbidden = [...ADJECTIVES, ...SUBJECTS, ...VERBS, ...OBJECTS, ...PLACES, ...SENTENCES, ...BENCH_SOURCES.map((s) => s.name)].filter(
  (w) => w.toLowerCase().includes(COMMON_WORD) || w.toLowerCase().includes(RARE_WORD),
);
if (forbidden.length > 0) throw new Error(`bench word lists contain the search words: ${forbidden.join(", ")}`);

/** A SQL array literal of constant strings. */
function textArray(values: readonly string[]): string {
  return `ARRAY[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(", ")}]::text[]`;
}
function intArray(values: readonly number[]): string {
  return `ARRAY[${values.map((v) => String(Math.trunc(v))).join(", ")}]::int[]`;
}

/** `(ARRAY[...])[1 + expr % n]`: an element picked by modulo. */
function pick(values: readonly string[], expr: string): string {
  return `(${textArray(values)})[1 + (${expr}) % ${values.length}]`;
}

export type SeedResult = {
  published: number;
  pending: number;
  categories: { id: number; slug: string; name: string }[];
  /** The slug of the newest published story. */
  newestSlug: string;
  /** Published stories whose title, summary or content contains the word (what search counts). */
  commonMatches: number;
  rareMatches: number;
  /** The whole seed, and its steps: the rows inserted, the indexes built again, VACUUM ANALYZE. */
  seconds: number;
  steps: { insertSeconds: number; indexSeconds: number; vacuumSeconds: number };
  /** Batches (and index builds) run side by side: one connection each. */
  parallel: number;
};

type Rows<T> = { rows: T[] };


/**
 * Seeds `published` published stories across 12 categories (plus 1% pending ones) into a migrated,
 * empty database, then VACUUM ANALYZE. Stories are numbered 1..n, 1 being the newest; publish dates
 * spread over two years. The search columns and each category's count are the database's own work
 * (generated columns, triggers), checked at the end. The batches run `parallel` at a time (default:
 * one per CPU core, at most 4).
 */
export async function seedStories(
  database: Pick<Database, "db" | "exec">,
  options: { published: number; batchSize?: number; parallel?: number; onProgress?: (done: number, total: number) => void },
): Promise<SeedResult> {
  const started = performance.now();
  const n = options.published;
  const batchSize = options.batchSize ?? 20_000;
  const parallel = Math.max(1, options.parallel ?? Math.min(4, os.availableParallelism()));
  const { db } = database;

  const categoryRows = await db
    .insert(categories)
    .values(BENCH_CATEGORIES.map((c, i) => ({ name: c.name, slug: c.slug, displayOrder: i + 1 })))
    .returning({ id: categories.id, slug: categories.slug, name: categories.name });
  const sourceRows = await db
    .insert(sources)
    .values(
      BENCH_SOURCES.map((s) => ({
        name: s.name,
        websiteUrl: `https://${s.host}/`,
        rssFeedUrl: `https://${s.host}/feed.xml`,
        sourceType: "rss" as const,
      })),
    )
    .returning({ id: sources.id });
  const categoryIds = intArray(categoryRows.map((c) => c.id));
  const sourceIds = intArray(sourceRows.map((s) => s.id));
  const hosts = textArray(BENCH_SOURCES.map((s) => s.host));
  const base = new Date().toISOString();
  const spanSeconds = 730 * 86_400;
  const rareEvery = Math.max(1, Math.floor(n / RARE_STORIES));

  // One row per i: the pieces first, then the columns built from them.
  const insert = (from: number, to: number, status: "published" | "pending") => {
    const published = status === "published";
    const key = published ? "i" : "(i + 7)"; // pending rows vary differently from published ones
    return `
INSERT INTO stories (title, summary, content, image_url, original_url, source_url, normalized_url, url_hash, slug,
                     publish_date, is_featured, status, category_id, source_id, created_at, updated_at)
SELECT title,
       summary,
       summary || ' ' || s1 || ' ' || s2 || ' ' || s3 || ' ' || s4 || ' ' || s5,
       CASE WHEN i % 4 = 0 THEN NULL ELSE 'https://images.example/oddwire/' || i || '.jpg' END,
       url,
       'https://' || host || '/',
       url,
       md5('${status}-' || i),
       slug,
       pub,
       ${published ? "i % 5000 = 1" : "false"},
       '${status}',
       (${categoryIds})[1 + (i * 7) % ${categoryRows.length}],
       (${sourceIds})[1 + i % ${sourceRows.length}],
       coalesce(pub, '${base}'::timestamptz) + interval '3 minutes',
       coalesce(pub, '${base}'::timestamptz) + interval '3 minutes'
FROM (
  SELECT i, host, pub, s1, s2, s3, s4, s5,
         adj || ' ' || subj || ' ' || verb || ' ' || obj || ' in ' || place AS title,
         'A ' || lower(adj) || ' ' || subj || ' ' || verb || ' ' || obj || ' in ' || place
           || ', reports ' || source_name || '. ' || s1 AS summary,
         'https://' || host || '/' || to_char(coalesce(pub, '${base}'::timestamptz), 'YYYY/MM') || '/${status}-story-' || i AS url,
         ${published ? "''" : "'pending-'"} || lower(regexp_replace(adj || ' ' || subj || ' ' || verb || ' ' || obj, '[^a-zA-Z0-9]+', '-', 'g')) || '-' || i AS slug
  FROM (
    SELECT i,
           ${pick(ADJECTIVES, key)} AS adj,
           CASE WHEN ${key} % ${SUBJECT_EVERY} = 0 THEN '${COMMON_WORD}' ELSE ${pick(SUBJECTS, `${key} / ${SUBJECT_EVERY}`)} END AS subj,
           ${pick(VERBS, key)} AS verb,
           ${published ? `CASE WHEN i % ${rareEvery} = ${Math.min(7, rareEvery - 1)} THEN 'a ${RARE_WORD}' ELSE ${pick(OBJECTS, key)} END` : pick(OBJECTS, key)} AS obj,
           ${pick(PLACES, key)} AS place,
           (${hosts})[1 + i % ${BENCH_SOURCES.length}] AS host,
           (${textArray(BENCH_SOURCES.map((s) => s.name))})[1 + i % ${BENCH_SOURCES.length}] AS source_name,
           ${pick(SENTENCES, key)} AS s1,
           ${pick(SENTENCES, `${key} / 3 + 1`)} AS s2,
           ${pick(SENTENCES, `${key} / 7 + 2`)} AS s3,
           ${pick(SENTENCES, `${key} / 11 + 5`)} AS s4,
           ${pick(SENTENCES, `${key} / 13 + 8`)} AS s5,
           ${
             published
               ? `'${base}'::timestamptz - ((i - 1)::float8 * ${spanSeconds / n}) * interval '1 second' - ((i::bigint * 7919) % 600) * interval '1 second'`
               : "NULL::timestamptz"
           } AS pub
    FROM generate_series(${from}, ${to}) AS g(i)
  ) pieces
) rows`;
  };

  // Every index of stories that no constraint owns (the primary key stays), dropped while the rows go
  // in and built again from its own definition: one pass over a million rows instead of a million
  // insertions into each GIN index. A freshly built index is denser than one grown story by story.
  const indexes = (
    (await db.execute(
      sql`SELECT i.indexname AS name, i.indexdef AS definition
          FROM pg_indexes i
          JOIN pg_class c ON c.relname = i.indexname AND c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = i.schemaname)
          WHERE i.schemaname = current_schema() AND i.tablename = 'stories'
            AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = c.oid)
          ORDER BY i.indexname`,
    )) as unknown as Rows<{ name: string; definition: string }>
  ).rows;
  for (const index of indexes) await database.exec(`DROP INDEX "${index.name.replace(/"/g, '""')}"`);

  const pending = Math.max(1, Math.round(n / 100));
  let done = 0;
  const batches: (() => Promise<void>)[] = [];
  for (let from = 1; from <= n; from += batchSize) {
    const to = Math.min(n, from + batchSize - 1);
    batches.push(async () => {
      await database.exec(insert(from, to, "published"));
      done += to - from + 1;
      options.onProgress?.(done, n);
    });
  }
  for (let from = 1; from <= pending; from += batchSize) {
    const to = Math.min(pending, from + batchSize - 1);
    batches.push(() => database.exec(insert(from, to, "pending")));
  }
  await eachLimit(batches, parallel, (batch) => batch());
  const inserted = performance.now();

  // The biggest first, so that the longest build starts at once; the memory a build may use.
  const memory = "SET LOCAL maintenance_work_mem = '512MB'; ";
  const order = (definition: string) => (/ USING gin /i.test(definition) ? (/search_body|summary/.test(definition) ? 0 : 1) : 2);
  const builds = [...indexes]
    .sort((a, b) => order(a.definition) - order(b.definition))
    .map((index) => () => database.exec(`BEGIN; ${memory}${index.definition}; COMMIT`));
  await eachLimit(builds, parallel, (build) => build());
  const indexed = performance.now();

  // A bulk-loaded table is not what a running site has: vacuum (visibility map) and fresh
  // statistics, as autovacuum would give it.
  await database.exec("VACUUM ANALYZE");
  const vacuumed = performance.now();

  const wrongCounts = (
    (await db.execute(
      sql`SELECT c.id, coalesce(k.published, 0) AS kept, count(s.id)::int AS counted
          FROM categories c
          LEFT JOIN category_story_counts k ON k.category_id = c.id
          LEFT JOIN stories s ON s.category_id = c.id AND s.status = 'published'
          GROUP BY c.id, k.published
          HAVING coalesce(k.published, 0) <> count(s.id)`,
    )) as unknown as Rows<{ id: number; kept: number; counted: number }>
  ).rows;
  if (wrongCounts.length > 0) throw new Error(`category_story_counts disagrees with the stories: ${JSON.stringify(wrongCounts)}`);

  const matches = async (word: string) => {
    const pattern = `%${word}%`;
    const result = (await db.execute(
      sql`SELECT count(*)::int AS n FROM stories WHERE status = 'published'
          AND (title ILIKE ${pattern} OR summary ILIKE ${pattern} OR content ILIKE ${pattern})`,
    )) as unknown as Rows<{ n: number }>;
    return Number(result.rows[0]?.n ?? 0);
  };
  const newest = (await db.execute(
    sql`SELECT slug FROM stories WHERE status = 'published' ORDER BY publish_date DESC, id DESC LIMIT 1`,
  )) as unknown as Rows<{ slug: string }>;

  return {
    published: n,
    pending,
    categories: categoryRows,
    newestSlug: newest.rows[0]?.slug ?? "",
    commonMatches: await matches(COMMON_WORD),
    rareMatches: await matches(RARE_WORD),
    seconds: (vacuumed - started) / 1000,
    steps: { insertSeconds: (inserted - started) / 1000, indexSeconds: (indexed - inserted) / 1000, vacuumSeconds: (vacuumed - indexed) / 1000 },
    parallel,
  };
}
