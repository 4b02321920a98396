// Data for `npm run bench:triage`: public labelled news read from files (see bench/data/README.md),
// and synthetic decisions of realistic size for the speed figures.
import { readFileSync } from "node:fs";
import { seededRandom } from "~/lib/seeded-random";

/** One labelled news item, in the order of its publication date. */
export type LabelledItem = { date: string; category: string; title: string; summary: string | null; linkHost: string | null };

function hostOfLink(link: unknown): string | null {
  if (typeof link !== "string" || !URL.canParse(link)) return null;
  return new URL(link).hostname.replace(/^www\./, "");
}

/**
 * HuffPost's News Category Dataset (Misra 2018, CC BY 4.0), either the original JSON-lines file
 * (News_Category_Dataset_v3.json, one object a line with category, headline, short_description,
 * link, date) or the tab-separated sample committed in bench/data (date, category, headline and,
 * optionally, the short description). Sorted oldest first; the file's order breaks ties.
 */
export function loadNewsCategoryDataset(path: string): LabelledItem[] {
  const text = readFileSync(path, "utf8");
  const items: LabelledItem[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "" || line.startsWith("#")) continue;
    if (line.startsWith("{")) {
      const row = JSON.parse(line) as Record<string, unknown>;
      items.push({
        date: String(row.date ?? ""),
        category: String(row.category ?? ""),
        title: String(row.headline ?? ""),
        summary: typeof row.short_description === "string" && row.short_description !== "" ? row.short_description : null,
        linkHost: hostOfLink(row.link),
      });
      continue;
    }
    const [date = "", category = "", title = "", summary = ""] = line.split("\t");
    items.push({ date, category, title, summary: summary === "" ? null : summary, linkHost: null });
  }
  // Stable: items of one day keep the file's order, reversed when the file runs newest first.
  const newestFirst = items.length > 1 && items[0]!.date > items[items.length - 1]!.date;
  const ordered = newestFirst ? items.reverse() : items;
  return ordered.map((item, i) => ({ item, i })).sort((a, b) => (a.item.date < b.item.date ? -1 : a.item.date > b.item.date ? 1 : a.i - b.i)).map(({ item }) => item);
}

// HuffPost renamed some sections over the years; the same desk would have one category for each pair.
const MERGED_SECTIONS: Record<string, string> = {
  "ARTS": "ARTS & CULTURE",
  "CULTURE & ARTS": "ARTS & CULTURE",
  "PARENTS": "PARENTING",
  "STYLE": "STYLE & BEAUTY",
  "GREEN": "ENVIRONMENT",
  "THE WORLDPOST": "WORLD NEWS",
  "WORLDPOST": "WORLD NEWS",
  "TASTE": "FOOD & DRINK",
  "HEALTHY LIVING": "WELLNESS",
  "COLLEGE": "EDUCATION",
};

/** A News Category Dataset section as a desk's category: renamed sections merged. */
export const sectionCategory = (section: string): string => MERGED_SECTIONS[section] ?? section;

/** One Reuters-21578 document of a Weka ARFF file: its first line is the title, the rest its text. */
export type ReutersItem = { title: string; summary: string; positive: boolean };

/**
 * Reuters-21578, ModApte split, as shipped in Debian's weka package (examples/ReutersCorn-train.arff
 * and -test.arff, ReutersGrain-*): a binary label for one topic. ModApte splits by date: the
 * training documents are older than the test documents.
 */
export function loadWekaReuters(path: string): ReutersItem[] {
  const text = readFileSync(path, "latin1");
  const items: ReutersItem[] = [];
  for (const match of text.matchAll(/^'((?:[^'\\]|\\.)*)',([01])\s*$/gm)) {
    const body = match[1]!.replace(/\\n/g, "\n").replace(/\\(.)/g, "$1");
    const newline = body.indexOf("\n");
    const title = newline === -1 ? body : body.slice(0, newline);
    items.push({ title: title.trim(), summary: newline === -1 ? "" : body.slice(newline + 1).replace(/\s+/g, " ").trim(), positive: match[2] === "1" });
  }
  return items;
}

/** Synthetic decisions for the speed figures: titles of about 10 words, summaries of about 40, 2% published. */
export function syntheticDecisions(count: number, seed = 7) {
  const random = seededRandom(seed);
  const syllables = ["ka", "lo", "mi", "ter", "van", "sol", "ri", "den", "po", "gus", "ne", "tha", "bri", "zu", "mar", "qui"];
  const vocabulary = Array.from({ length: 20_000 }, (_, i) => {
    let word = "";
    let n = i + 1;
    do {
      word += syllables[n % syllables.length];
      n = Math.floor(n / syllables.length);
    } while (n > 0);
    return word;
  });
  // Word frequencies fall off as in real text (Zipf).
  const zipf = () => vocabulary[Math.min(vocabulary.length - 1, Math.floor(Math.exp(random() * Math.log(vocabulary.length))) - 1)]!;
  const oddWords = ["goat", "llama", "haunted", "alligator", "toilet", "naked", "ufo", "clown"];
  const words = (n: number, odd: boolean) =>
    Array.from({ length: n }, () => (odd && random() < 0.15 ? oddWords[Math.floor(random() * oddWords.length)]! : zipf())).join(" ");
  return Array.from({ length: count }, (_, i) => {
    const published = random() < 0.02;
    return {
      title: `${words(8 + Math.floor(random() * 5), published)}`,
      summary: words(30 + Math.floor(random() * 20), published),
      sourceId: 1 + Math.floor(random() * 50),
      linkHost: `site${Math.floor(random() * 200)}.example`,
      published,
      categorySlug: `category-${Math.floor(random() * 30)}`,
      index: i,
    };
  });
}

