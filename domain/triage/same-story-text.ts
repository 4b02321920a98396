// The text side of same-story grouping: words as the comparison sees them, the words that carry no
// event (stop words and the vocabulary every news story shares), and phrase hashes for near-identical
// text. Pure; nothing here knows about stories.

/** Only this much of a summary is read: the lead carries the event, and a 100 KB summary must not cost more. */
export const SUMMARY_CHARS_READ = 2_000;

// English function words, and words every news item uses, so that two stories never look alike for
// sharing "police", "man" or "update". Other languages get no list: rare-word weighting does that work.
const STOP_WORDS = new Set(
  (
    "a about above after again against all almost also although always am among an and another any are aren't around as at be because been " +
    "before being below between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each either " +
    "else ever every few for from further get gets got had hadn't has hasn't have haven't having he he'd he'll he's her here here's hers herself " +
    "him himself his how how's however i i'd i'll i'm i've if in into is isn't it it's its itself just let's like made make makes many may me " +
    "might more most much must mustn't my myself near neither never no nor not now of off often on once one only or other ought our ours " +
    "ourselves out over own per same say says said shan't she she'd she'll she's should shouldn't since so some still such than that that's " +
    "the their theirs them themselves then there there's these they they'd they'll they're they've this those though through to too toward " +
    "towards under until up upon us very via was wasn't we we'd we'll we're we've were weren't what what's when when's where where's whether " +
    "which while who who's whom whose why why's will with within without won't would wouldn't yet you you'd you'll you're you've your yours " +
    "yourself yourselves " +
    // The vocabulary of news itself: in nearly every story, so it tells no two stories apart.
    "according accused afternoon ago announced breaking claims day days today tonight yesterday tomorrow morning evening night week weeks " +
    "weekend month months year years old new news report reports reported reporting update updates updated latest live watch video photos " +
    "pictures man men woman women people person police officers officials official local authorities told statement spokesperson " +
    "first last two three four five six seven eight nine ten time times world city town area region country state government " +
    "monday tuesday wednesday thursday friday saturday sunday january february march april june july august september october november december " +
    "mr mrs ms dr st"
  ).split(/\s+/),
);

// Scripts written without spaces between words: each run is read as overlapping pairs of characters.
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;
const MARKS = /\p{M}+/gu;
const NUMBER = /^\p{N}+$/u;

const ASCII_WORD = /[a-z0-9]+(?:'[a-z]+)*/g;
const NOT_ASCII = /[^ -~\t\n\r]/;

/**
 * Calls `word` for each word of a text, as `wordsOf` reads them, with the word's hash (`hashWord`) and
 * a way to get its text. Plain ASCII text is read character by character without making a string
 * per word: most words are ones already met, known by their hash alone.
 */
export function eachWord(text: string, word: (hash: number, text: () => string) => void): void {
  if (NOT_ASCII.test(text)) {
    for (const w of wordsOf(text)) word(hashWord(w), () => w);
    return;
  }
  const n = text.length;
  let i = 0;
  while (i < n) {
    let c = text.charCodeAt(i);
    if (c >= 65 && c <= 90) c |= 32;
    if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57))) {
      i++;
      continue;
    }
    const start = i;
    let h = 0x811c9dc5;
    let lowered = false;
    for (;;) {
      if (i < n) {
        c = text.charCodeAt(i);
        if (c >= 65 && c <= 90) {
          c |= 32;
          lowered = true;
        }
      }
      if (i < n && ((c >= 97 && c <= 122) || (c >= 48 && c <= 57))) {
        h = Math.imul(h ^ c, 0x01000193);
        i++;
        continue;
      }
      // An apostrophe joins letters that follow it ("goat's", "rock'n'roll").
      const next = i + 1 < n ? text.charCodeAt(i + 1) | 32 : 0;
      if (i < n && c === 39 && next >= 97 && next <= 122) {
        h = Math.imul(h ^ 39, 0x01000193);
        i++;
        for (; i < n; i++) {
          let d = text.charCodeAt(i);
          if (d >= 65 && d <= 90) {
            d |= 32;
            lowered = true;
          }
          if (!(d >= 97 && d <= 122)) break;
          h = Math.imul(h ^ d, 0x01000193);
        }
        if (i < n && text.charCodeAt(i) === 39) continue;
        break;
      }
      break;
    }
    const end = i;
    word(h >>> 0, () => (lowered ? text.slice(start, end).toLowerCase() : text.slice(start, end)));
  }
}

/** The words of a text, lower-cased and without accents (apostrophes kept); unspaced scripts as character pairs. */
export function wordsOf(text: string): string[] {
  // Most text is plain ASCII: read it without the Unicode work.
  if (!NOT_ASCII.test(text)) return text.toLowerCase().match(ASCII_WORD) ?? [];
  const plain = text.normalize("NFKD").replace(MARKS, "").toLowerCase();
  const words: string[] = [];
  for (const match of plain.matchAll(WORD)) {
    const word = match[0].replace(/’/g, "'");
    if (!UNSPACED.test(word)) {
      words.push(word);
      continue;
    }
    const chars = Array.from(word);
    if (chars.length === 1) words.push(word);
    for (let i = 0; i + 1 < chars.length; i++) words.push(chars[i]! + chars[i + 1]!);
  }
  return words;
}

/**
 * The word as a word that can say what a story is about, or null: no stop words, no single letters,
 * possessives and plain plurals folded ("goats'" and "goat's" read as "goat"), numbers kept.
 */
export function contentToken(raw: string): string | null {
  const word = raw.endsWith("'s") ? raw.slice(0, -2) : raw.replace(/'$/, "");
  if (word.length < 2 && !NUMBER.test(word) && !UNSPACED.test(word)) return null;
  if (STOP_WORDS.has(word)) return null;
  return stem(word);
}

/** The content tokens of a run of words, in order. */
export function contentTokens(words: readonly string[]): string[] {
  const tokens: string[] = [];
  for (const word of words) {
    const token = contentToken(word);
    if (token !== null) tokens.push(token);
  }
  return tokens;
}

/**
 * A light suffix fold, so that "elects", "elected" and "electing" read as one word. Not a full
 * stemmer: it only has to treat two texts alike, and it never shortens a word below four letters.
 */
export function stem(word: string): string {
  if (word.length <= 3 || UNSPACED.test(word) || NUMBER.test(word)) return word;
  for (const [suffix, keep] of [["ies", "y"], ["ing", ""], ["ed", ""], ["es", ""], ["s", ""]] as const) {
    if (!word.endsWith(suffix) || word.length - suffix.length < 4) continue;
    if (suffix === "s" && /(ss|us|is)$/.test(word)) return word;
    if (suffix === "es" && !/(ches|shes|sses|xes|zes)$/.test(word)) continue;
    return dropFinalE(word.slice(0, -suffix.length) + keep);
  }
  return dropFinalE(word);
}

// "escape", "escapes" and "escaped" all end as "escap".
const dropFinalE = (word: string) => (word.length > 4 && word.endsWith("e") ? word.slice(0, -1) : word);

/** Whether a word is a number: two stories whose otherwise identical text differs in a number are two stories. */
export function isNumber(word: string): boolean {
  return NUMBER.test(word);
}

/** A word's 32-bit hash (FNV-1a over UTF-16 code units: fast and well spread for short strings). */
export function hashWord(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) {
    h ^= word.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A hash of a whole run of words (from their hashes): equal runs, equal hashes. */
export function hashRun(hashes: readonly number[]): number {
  let h = 0x9e3779b1 ^ hashes.length;
  for (const x of hashes) h = Math.imul(h ^ x, 0x85ebca6b) ^ (h >>> 13);
  return h >>> 0;
}

/** The text's phrases (every run of three words, hashed from the words' hashes), sorted and unique: near-identical texts share nearly all. */
export function phraseHashes(hashes: readonly number[]): Uint32Array {
  if (hashes.length < 3) return hashes.length ? Uint32Array.of(hashRun(hashes)) : new Uint32Array(0);
  const out = new Uint32Array(hashes.length - 2);
  for (let i = 0; i + 2 < hashes.length; i++) {
    let h = Math.imul(hashes[i]! ^ 0x9e3779b1, 0x85ebca6b);
    h = Math.imul(h ^ hashes[i + 1]!, 0xc2b2ae35);
    h = Math.imul(h ^ hashes[i + 2]!, 0x27d4eb2f);
    out[i] = (h ^ (h >>> 15)) >>> 0;
  }
  out.sort();
  let n = 0;
  for (let i = 0; i < out.length; i++) if (i === 0 || out[i] !== out[i - 1]) out[n++] = out[i]!;
  return out.slice(0, n);
}

/** Jaccard similarity of two sorted unique arrays. */
export function jaccardSorted(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length === 0 || b.length === 0) return 0;
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      shared++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return shared / (a.length + b.length - shared);
}
