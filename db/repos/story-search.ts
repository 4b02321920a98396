import { and, ilike, sql } from "drizzle-orm";
import type { Db } from "../client";
import { stories } from "../schema";
import { containsPattern } from "~/lib/like-pattern";
import { newestFirst, published, selectListed, type ListedStory } from "./published-stories";

// The public search: matching stories by their words, title suggestions, and 'Did you mean'.

// The search columns the database generates (migration 0009); db/schema.ts leaves them out so that
// no story read carries them.
const SEARCH = {
  title: sql.raw(`"stories"."search_title"`),
  body: sql.raw(`"stories"."search_body"`),
  titleVector: sql.raw(`"stories"."search_title_vector"`),
  vector: sql.raw(`"stories"."search_vector"`),
};

/** Up to this many matches, a search reads them all through its indexes and orders them itself. */
const FEW_MATCHES = 2_000;

/** Edits between two words (optimal string alignment: insert, delete, replace, or swap two neighbours). */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/** How long the words of recent titles are kept before they are read again, even if no newer story was published. */
const VOCABULARY_TTL_MS = 60_000;

/** The search's reads, part of the public stories' repository. */
export function storySearch(db: Db) {
  // The words (of at least 3 letters, folded) of the newest published titles and summaries, with how
  // often each occurs, for 'Did you mean': splitting 5,000 stories into words took 150 ms a word on
  // PGlite at 100,000 stories. Kept while the newest published story is the same one, unchanged, and
  // for at most a minute (an older story's edit shows within that minute).
  let vocabulary: { key: string; at: number; words: Promise<Map<string, number>> } | null = null;
  async function recentVocabulary(recentTitles: number): Promise<Map<string, number>> {
    const newest = (await db.execute(sql`
      SELECT id, publish_date::text AS published, updated_at::text AS updated FROM stories WHERE status = 'published'
      ORDER BY publish_date DESC NULLS FIRST, id DESC LIMIT 1`)) as unknown as { rows: { id: number; published: string | null; updated: string }[] };
    const row = newest.rows[0];
    const key = `${recentTitles} ${row?.id ?? ""} ${row?.published ?? ""} ${row?.updated ?? ""}`;
    if (vocabulary && vocabulary.key === key && Date.now() - vocabulary.at < VOCABULARY_TTL_MS) return vocabulary.words;
    const words = (async () => {
      const result = (await db.execute(sql`
        SELECT w AS word, count(*)::int AS n
        FROM (
          SELECT regexp_split_to_table(oddwire_fold(title || ' ' || coalesce(summary, '')), '[^[:alnum:]]+') AS w
          FROM (
            SELECT title, summary FROM stories WHERE status = 'published'
            ORDER BY publish_date DESC NULLS FIRST, id DESC LIMIT ${recentTitles}
          ) recent
        ) words
        WHERE length(w) >= 3
        GROUP BY w`)) as unknown as { rows: { word: string; n: number }[] };
      return new Map(result.rows.map((r) => [r.word, r.n]));
    })();
    vocabulary = { key, at: Date.now(), words };
    // A failed read is not kept.
    words.catch(() => {
      if (vocabulary?.words === words) vocabulary = null;
    });
    return words;
  }

  return {
    /**
     * Published stories matching `query` (docs/decisions/011-search.md): its text anywhere in the
     * title, summary or content (case and accents folded, markup left out), or all its words by
     * their English stems (plurals, -ing, -ed; "quoted words" as a phrase). Title matches first, then
     * the others, each newest first; with the total, counted up to `countCap` matches. Title and body
     * matches are read separately so that a common word needs only the rows of the page.
     */
    async search(query: string, page: { limit: number; offset: number; countCap: number; fewMatches?: number }) {
      const pattern = sql`oddwire_fold(${containsPattern(query.replace(/"/g, "").trim())})`;
      const words = sql`websearch_to_tsquery('english', oddwire_fold(${query}))`;
      const inTitle = sql`(${SEARCH.title} LIKE ${pattern} OR ${SEARCH.titleVector} @@ ${words})`;
      const inBody = sql`(${SEARCH.body} LIKE ${pattern} OR ${SEARCH.vector} @@ ${words})`;

      // Counted first, through the indexes: how many match decides how the page is read.
      const counted =
        (
          (await db.execute(sql`
            SELECT count(*)::int AS n FROM (
              SELECT 1 FROM ${stories}
              WHERE ${and(published, sql`(${inTitle} OR ${inBody})`)}
              LIMIT ${page.countCap + 1}
            ) matches`)) as unknown as { rows: { n: number }[] }
        ).rows[0]?.n ?? 0;
      const total = { total: Math.min(counted, page.countCap), totalIsCapped: counted > page.countCap };
      if (counted === 0) return { stories: [], ...total };

      if (counted <= (page.fewMatches ?? FEW_MATCHES)) {
        // Few matches: read them all through the search indexes and order them here. Walking the date
        // index instead would pass over nearly every story to find them.
        const rows = await selectListed(db)
          .where(and(published, sql`(${inTitle} OR ${inBody})`))
          .orderBy(sql`CASE WHEN ${inTitle} THEN 0 ELSE 1 END`, ...newestFirst)
          .limit(page.limit)
          .offset(page.offset);
        return { stories: rows, ...total };
      }

      // Many matches (a common word): they are dense, so walking the date index finds a page's rows
      // quickly; title matches first, then the others.
      const titleRows = await selectListed(db).where(and(published, inTitle)).orderBy(...newestFirst).limit(page.limit).offset(page.offset);
      let bodyRows: ListedStory[] = [];
      if (titleRows.length < page.limit) {
        // How many title matches come before the body matches: known from this page unless it is past them all.
        const titleTotal =
          titleRows.length > 0 || page.offset === 0
            ? page.offset + titleRows.length
            : ((await db.select({ n: sql<number>`count(*)::int` }).from(stories).where(and(published, inTitle)))[0]?.n ?? 0);
        bodyRows = await selectListed(db)
          .where(and(published, sql`NOT ${inTitle}`, inBody))
          .orderBy(...newestFirst)
          .limit(page.limit - titleRows.length)
          .offset(Math.max(0, page.offset - titleTotal));
      }
      return { stories: [...titleRows, ...bodyRows], ...total };
    },

    /** Up to `limit` published titles containing `query`, newest first. */
    suggest(query: string, limit: number): Promise<{ id: number; title: string; slug: string }[]> {
      return db
        .select({ id: stories.id, title: stories.title, slug: stories.slug })
        .from(stories)
        .where(and(published, ilike(stories.title, containsPattern(query))))
        .orderBy(...newestFirst)
        .limit(limit);
    },

    /**
     * The word of recent published titles and summaries closest in spelling to `word` (accents and
     * case folded): at most one edit away for a word of up to four letters, two for longer ones, a
     * swap of two letters counting as one edit; the most frequent among equally close ones. Null when
     * `word` is itself one of those words, or nothing is close. Edit distance, not trigram similarity:
     * it finds the transposed and doubled letters of real typos that trigrams miss.
     */
    async closestTitleWord(word: string, options: { recentTitles: number }): Promise<string | null> {
      const folded = word.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
      const maxEdits = folded.length <= 4 ? 1 : 2;
      const words = await recentVocabulary(options.recentTitles);
      if (words.has(folded)) return null;
      let best: { word: string; n: number; edits: number } | null = null;
      for (const [candidate, n] of words) {
        if (Math.abs(candidate.length - folded.length) > maxEdits) continue;
        const edits = editDistance(candidate, folded);
        if (edits > maxEdits) continue;
        if (!best || edits < best.edits || (edits === best.edits && (n > best.n || (n === best.n && candidate.localeCompare(best.word) < 0)))) {
          best = { word: candidate, n, edits };
        }
      }
      return best?.word ?? null;
    },
  };
}
