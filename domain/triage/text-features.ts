import { htmlToText } from "~/lib/html";

// Features of a story for the triage models: words of the title and summary, pairs of adjacent
// words, letter sequences, the source and the link's host, weighted by tf-idf.
// Feature names carry a prefix so that a reason can be told to an editor in words:
//   "w:goat" word (of title or summary, or of the summary alone when title words stand apart),
//   "t:goat" title word, "p:florida man" title word pair, "q:pet goat" summary word pair,
//   "c:goa" letters of a title word, "s:12" source, "h:example.com" site.

/** What the models read of a story: the text the editor saw when deciding. */
export type TriageText = {
  title: string | null;
  summary: string | null;
  sourceId: number | null;
  linkHost: string | null;
};

export type FeatureOptions = {
  /** Adds pairs of adjacent title words ("florida man") to the single words. */
  titlePairs: boolean;
  /** Folds English plurals ("goats" counts as "goat"). */
  stemming: boolean;
  /**
   * How title words are counted: with the summary's as one feature ("shared"), as their own
   * feature as well ("also": a word in a headline says more than one deep in a summary), or apart only.
   */
  titleWords: "shared" | "also" | "apart";
  /** Adds pairs of adjacent summary words. */
  summaryPairs: boolean;
  /** Adds the 3 to 5 letter sequences of the title's words ("c:goa"), which match word forms the vocabulary lacks. */
  titleLetters: boolean;
  /** A feature's count as weighed: 1 + ln(count) ("sublinear"), the count itself, or 1 when present. */
  tf: "sublinear" | "raw" | "binary";
  /** Scales each story's vector to unit length, so that a long summary weighs no more than a short one. */
  l2: boolean;
};

/** The options of the first models: a stored model's options it lacks (older than they) are read as these. */
export const FEATURE_OPTIONS_V1: Readonly<FeatureOptions> = {
  titlePairs: true,
  stemming: true,
  titleWords: "shared",
  summaryPairs: false,
  titleLetters: false,
  tf: "sublinear",
  l2: true,
};

export const DEFAULT_FEATURE_OPTIONS: FeatureOptions = { ...FEATURE_OPTIONS_V1 };

/** A stored model's feature options, the ones it lacks (an older model) read as they were then. */
export function featureOptionsFromJson(json: Partial<FeatureOptions> | null | undefined): FeatureOptions {
  const stored = json !== null && typeof json === "object" ? json : {};
  const pick = <K extends keyof FeatureOptions>(key: K, allowed: readonly FeatureOptions[K][]): FeatureOptions[K] =>
    allowed.includes(stored[key] as FeatureOptions[K]) ? (stored[key] as FeatureOptions[K]) : FEATURE_OPTIONS_V1[key];
  return {
    titlePairs: pick("titlePairs", [true, false]),
    stemming: pick("stemming", [true, false]),
    titleWords: pick("titleWords", ["shared", "also", "apart"]),
    summaryPairs: pick("summaryPairs", [true, false]),
    titleLetters: pick("titleLetters", [true, false]),
    tf: pick("tf", ["sublinear", "raw", "binary"]),
    l2: pick("l2", [true, false]),
  };
}

// Only the start of a long text is read: a 100 KB summary costs what a normal one does, and the
// opening of an article says what it is about.
const MAX_TITLE_CHARS = 600;
const MAX_SUMMARY_CHARS = 3_000;
const MAX_TOKEN_CHARS = 40;

// Common English function words: they say nothing about what a desk publishes.
const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a about above after again against all also am an and any are as at be because been before being below between both but by " +
    "can could did do does doing down during each few for from further had has have having he her here hers herself him himself his " +
    "how i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours ourselves out " +
    "over own same she should so some such than that the their theirs them themselves then there these they this those through to too " +
    "under until up very was we were what when where which while who whom why will with would you your yours yourself yourselves " +
    "says said say new one two get gets got via amp quot"
  ).split(" "),
);

// Scripts written without spaces between words: read as overlapping character pairs.
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const LATIN_LOWER = /^[a-z]+$/;
const DIGITS = /^\p{N}+$/u;

/**
 * A light English plural stemmer (Harman's S-stemmer): "goats" and "goat" count as one word, while
 * the word an editor reads in a reason stays a real word, which a Porter stem ("stori") is not.
 */
function stem(token: string): string {
  if (token.length <= 3 || !LATIN_LOWER.test(token)) return token;
  if (token.endsWith("ies") && !token.endsWith("eies") && !token.endsWith("aies")) return `${token.slice(0, -3)}y`;
  if (token.endsWith("es") && !token.endsWith("aes") && !token.endsWith("ees") && !token.endsWith("oes")) return token.slice(0, -1);
  if (token.endsWith("s") && !token.endsWith("us") && !token.endsWith("ss")) return token.slice(0, -1);
  return token;
}

function plainText(text: string | null | undefined, maxChars: number): string {
  if (typeof text !== "string" || text === "") return "";
  // Cap before decoding, then again after: entities and tags only shorten the text.
  const head = text.length > maxChars ? text.slice(0, maxChars) : text;
  return htmlToText(head).slice(0, maxChars);
}

/** Lowercased words of a text, without stop words, plurals folded; unspaced scripts as character pairs. */
export function tokenize(text: string | null | undefined, maxChars = MAX_SUMMARY_CHARS, stemming = true): string[] {
  const plain = plainText(text, maxChars)
    .normalize("NFKC")
    .toLowerCase()
    // "dog's" is the word "dog"; "don't" stays one word.
    .replace(/['’]s\b/g, "")
    .replace(/['’]/g, "");
  const tokens: string[] = [];
  const unspaced = UNSPACED.test(plain);
  for (const match of plain.matchAll(WORD)) {
    const word = match[0];
    if (unspaced && UNSPACED.test(word)) {
      const chars = Array.from(word);
      if (chars.length === 1) tokens.push(word);
      for (let i = 0; i + 1 < chars.length; i += 1) tokens.push(chars[i]! + chars[i + 1]!);
      continue;
    }
    if (word.length < 2 || word.length > MAX_TOKEN_CHARS || STOP_WORDS.has(word)) continue;
    const first = word.charCodeAt(0);
    // Years say something; other numbers rarely do.
    if (first >= 48 && first <= 57 && word.length !== 4 && DIGITS.test(word)) continue;
    tokens.push(stemming ? stem(word) : word);
  }
  return tokens;
}

/** The host of a link, lowercased and without "www.", or null when there is none. */
export function hostOf(link: string | null | undefined): string | null {
  if (typeof link !== "string" || link.trim() === "") return null;
  const raw = link.includes("://") ? link : `https://${link}`;
  if (!URL.canParse(raw)) return null;
  const host = new URL(raw).hostname.toLowerCase().replace(/^www\./, "");
  return host === "" ? null : host;
}

/** The letter sequences of a word, from 3 to 5 long, with its start and end marked ("<go", "goa", "oat>"). */
export function letterSequences(word: string): string[] {
  const chars = Array.from(`<${word}>`);
  const sequences: string[] = [];
  for (let n = 3; n <= 5; n += 1) {
    for (let i = 0; i + n <= chars.length; i += 1) sequences.push(chars.slice(i, i + n).join(""));
  }
  return sequences;
}

/** Raw counts of the named features of one story (before tf-idf). */
export function extractFeatures(story: TriageText, options: FeatureOptions = DEFAULT_FEATURE_OPTIONS): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (name: string) => counts.set(name, (counts.get(name) ?? 0) + 1);
  const stemming = options.stemming !== false;
  const titleTokens = tokenize(story.title, MAX_TITLE_CHARS, stemming);
  const summaryTokens = tokenize(story.summary, MAX_SUMMARY_CHARS, stemming);
  const titleWords = options.titleWords ?? "shared";
  for (const token of titleTokens) {
    if (titleWords !== "apart") add(`w:${token}`);
    if (titleWords !== "shared") add(`t:${token}`);
  }
  for (const token of summaryTokens) add(`w:${token}`);
  if (options.titlePairs) {
    for (let i = 0; i + 1 < titleTokens.length; i += 1) add(`p:${titleTokens[i]} ${titleTokens[i + 1]}`);
  }
  if (options.summaryPairs) {
    for (let i = 0; i + 1 < summaryTokens.length; i += 1) add(`q:${summaryTokens[i]} ${summaryTokens[i + 1]}`);
  }
  if (options.titleLetters) {
    for (const word of stemming ? tokenize(story.title, MAX_TITLE_CHARS, false) : titleTokens) {
      for (const sequence of letterSequences(word)) add(`c:${sequence}`);
    }
  }
  if (typeof story.sourceId === "number" && Number.isFinite(story.sourceId)) add(`s:${story.sourceId}`);
  const host = story.linkHost ? hostOf(story.linkHost) : null;
  if (host) add(`h:${host}`);
  return counts;
}

/** A feature name told as an editor reads it: "word: goat", "words: florida man", "source: 12", "site: example.com". */
export function describeFeature(name: string): string {
  const value = name.slice(2);
  switch (name.slice(0, 2)) {
    case "w:":
      return `word: ${value}`;
    case "t:":
      return `title word: ${value}`;
    case "p:":
    case "q:":
      return `words: ${value}`;
    case "c:":
      return `letters: ${value.replace(/^<|>$/g, "")}`;
    case "s:":
      return `source: ${value}`;
    case "h:":
      return `site: ${value}`;
    default:
      return name;
  }
}

/** The vocabulary a model was trained on, as stored in its JSON: feature names and their idf. */
export type VocabularyJson = { features: string[]; idf: number[] };

export type Vocabulary = { index: Map<string, number>; idf: Float64Array; features: string[] };

/** A story as the models read it: sorted feature indices with L2-normalised tf-idf values. */
export type SparseVector = { indices: Int32Array; values: Float64Array };

/**
 * Chooses the features seen in at least `minDf` documents, keeping the `maxFeatures` most frequent
 * so that the stored model stays small, and computes their smoothed idf.
 */
export function buildVocabulary(docs: readonly Map<string, number>[], options: { minDf: number; maxFeatures: number }): Vocabulary {
  const df = new Map<string, number>();
  for (const doc of docs) for (const name of doc.keys()) df.set(name, (df.get(name) ?? 0) + 1);
  const kept = [...df.entries()]
    .filter(([, count]) => count >= options.minDf)
    // Most frequent first; ties by name, so that the same data always gives the same model.
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, Math.max(0, options.maxFeatures));
  const n = docs.length;
  const features = kept.map(([name]) => name);
  const idf = Float64Array.from(kept, ([, count]) => Math.log((1 + n) / (1 + count)) + 1);
  return { index: new Map(features.map((name, i) => [name, i])), idf, features };
}

// Four significant digits are more than the models' precision and keep the stored JSON small.
export const round4 = (x: number): number => (x === 0 ? 0 : Number(x.toPrecision(4)));

export function vocabularyToJson(vocabulary: Vocabulary): VocabularyJson {
  return { features: vocabulary.features, idf: Array.from(vocabulary.idf, round4) };
}

export function vocabularyFromJson(json: VocabularyJson): Vocabulary {
  const features = Array.isArray(json?.features) ? json.features : [];
  const idf = Float64Array.from(features, (_, i) => (Number.isFinite(json.idf?.[i]) ? json.idf[i]! : 1));
  return { index: new Map(features.map((name, i) => [name, i])), idf, features };
}

/** The tf-idf vector of a story's features over a vocabulary, weighted and scaled as its options say (by default 1 + ln(tf), times idf, L2-normalised). */
export function vectorize(counts: Map<string, number>, vocabulary: Vocabulary, weighting: Pick<FeatureOptions, "tf" | "l2"> = DEFAULT_FEATURE_OPTIONS): SparseVector {
  const found: number[] = [];
  const weightOf = new Map<number, number>();
  for (const [name, count] of counts) {
    const i = vocabulary.index.get(name);
    if (i === undefined) continue;
    found.push(i);
    const tf = weighting.tf === "binary" ? 1 : weighting.tf === "raw" ? count : 1 + Math.log(count);
    weightOf.set(i, tf * vocabulary.idf[i]!);
  }
  found.sort((a, b) => a - b);
  const indices = new Int32Array(found.length);
  const values = new Float64Array(found.length);
  let norm = 0;
  for (let k = 0; k < found.length; k += 1) {
    const value = weightOf.get(found[k]!)!;
    indices[k] = found[k]!;
    values[k] = value;
    norm += value * value;
  }
  norm = weighting.l2 === false ? 1 : Math.sqrt(norm) || 1;
  for (let k = 0; k < values.length; k += 1) values[k]! /= norm;
  return { indices, values };
}
