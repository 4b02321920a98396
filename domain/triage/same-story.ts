import { contentToken, eachWord, hashRun, isNumber, jaccardSorted, phraseHashes, SUMMARY_CHARS_READ } from "./same-story-text";

// One story told by several sources: which pending stories report the same event as each other, or as
// a story the desk has already published. Conservative by design, since a wrong group hides a story:
//
// - "same text": title and summary nearly word for word the same (at least 80% of their three-word
//   phrases shared, at least eight words, no number that differs), within SAME_TEXT_DAYS, any source;
// - "similar": titles (at least 50%) and summaries (at least 60%) alike by their rare words (idf-weighted cosine), sharing several
//   rare words, from different sources on different sites, within SIMILAR_DAYS.
//
// A story joins a group only when it matches the group's first story itself, so a chain of loose
// likenesses never links two different events. Candidates come from an index of each story's rarest
// words (those that name the event), walked only within the time window, never from all pairs.

export const SAME_TEXT_DAYS = 14;
export const SIMILAR_DAYS = 4;
export const SAME_TEXT_MIN_WORDS = 8;
export const SAME_TEXT_JACCARD = 0.8;
export const SIMILAR_TITLE = 0.5;
export const SIMILAR_SUMMARY = 0.6;
/** Rare words two stories must share to be called alike, and how many of them must be in both titles. */
export const SIMILAR_RARE_SHARED = 3;
const SIMILAR_RARE_IN_TITLES = 1;
/** A summary shorter than this (in content words) says too little to compare. */
const SUMMARY_MIN_TOKENS = 4;
/** How many of its rarest words index a story. */
const INDEX_WORDS = 8;

const DAY_MS = 86_400_000;
const IDF_FLOOR = 1_000;

/** A story as grouping reads it. `at` is when it was reported: the source's own date, else when it came in. */
export type SameStoryInput = {
  id: number;
  title: string;
  summary: string | null;
  sourceId: number | null;
  sourceName: string | null;
  /** The host of the story's link, without "www.": two feeds of one site are one outlet. */
  linkHost: string | null;
  at: Date;
};

/** How a story matched its group's first story. */
export type SameStoryMatch =
  | { kind: "same-text"; identical: boolean; phrasesShared: number; hoursApart: number }
  | { kind: "similar"; titles: number; summaries: number; hoursApart: number };

export type SameStoryMember = {
  id: number;
  /** Its match with the group's first story; null for the first story itself. */
  match: SameStoryMatch | null;
  /** Why it is in the group, in the editor's words. */
  reason: string;
};

export type SameStoryGroup = {
  /** The group's first story: a published one when the group has one (the desk chose it), else the earliest pending one. */
  groupId: number;
  /** Whether the first story is already published (every pending member is then a late copy of it). */
  published: boolean;
  /** The pending stories of the group, the first story included when it is pending, earliest first. */
  pending: SameStoryMember[];
  /** Distinct sources (or sites, for stories without a source) in the group. */
  sources: number;
};

type Doc = {
  input: SameStoryInput;
  published: boolean;
  time: number;
  sourceKey: string;
  title: Int32Array;
  summary: Int32Array;
  all: Int32Array;
  words: number;
  phrases: Uint32Array;
  numbers: string;
  exactKey: string;
  titleNorm: number;
  summaryNorm: number;
};

/** Groups pending stories that report the same event, among themselves and with recently published stories. */
export function groupSameStories(pending: readonly SameStoryInput[], published: readonly SameStoryInput[] = []): SameStoryGroup[] {
  const vocabulary = new Map<string, number>();
  const df: number[] = [];
  const idOf = (token: string) => {
    let id = vocabulary.get(token);
    if (id === undefined) {
      id = df.length;
      vocabulary.set(token, id);
      df.push(0);
    }
    return id;
  };
  // Each distinct word is read once: its token (or -1, a word that says nothing), its hash, whether a number.
  // Each distinct word is read once, known by its hash: its token (or -1, a word that says nothing) and
  // whether it is a number. Two words with one 32-bit hash would read as one: rare enough not to matter.
  const wordInfo = new Map<number, { token: number; number: string | null }>();
  // Sorted, without repeats, in place.
  const uniqueSorted = (ids: number[]) => {
    const sorted = Int32Array.from(ids).sort();
    let n = 0;
    for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[n++] = sorted[i]!;
    return sorted.subarray(0, n);
  };
  const read = (text: string, hashes: number[], numbers: string[]) => {
    const tokens: number[] = [];
    eachWord(text, (hash, word) => {
      let info = wordInfo.get(hash);
      if (!info) {
        const w = word();
        const token = contentToken(w);
        info = { token: token === null ? -1 : idOf(token), number: isNumber(w) ? w : null };
        wordInfo.set(hash, info);
      }
      if (info.token >= 0) tokens.push(info.token);
      hashes.push(hash);
      if (info.number !== null) numbers.push(info.number);
    });
    return uniqueSorted(tokens);
  };

  const prepare = (input: SameStoryInput, isPublished: boolean): Doc => {
    const hashes: number[] = [];
    const numbers: string[] = [];
    const title = read(input.title ?? "", hashes, numbers);
    const titleLength = hashes.length;
    const summary = read((input.summary ?? "").slice(0, SUMMARY_CHARS_READ), hashes, numbers);
    const all = uniqueSorted([...title, ...summary]);
    for (const token of all) df[token]!++;
    const time = input.at.getTime();
    return {
      input,
      published: isPublished,
      time: Number.isFinite(time) ? time : 0,
      sourceKey: input.sourceId !== null ? `s${input.sourceId}` : `h${input.linkHost ?? `story-${input.id}`}`,
      title,
      summary,
      all,
      words: hashes.length,
      phrases: phraseHashes(hashes),
      numbers: numbers.length ? [...new Set(numbers)].sort().join(" ") : "",
      exactKey: `${hashRun(hashes.slice(0, titleLength))}:${hashRun(hashes.slice(titleLength))}:${titleLength}:${hashes.length}`,
      titleNorm: 0,
      summaryNorm: 0,
    };
  };

  const publishedDocs = published.map((input) => prepare(input, true));
  const pendingDocs = pending.map((input) => prepare(input, false));
  const total = publishedDocs.length + pendingDocs.length;
  // A word is rare when few stories use it: at most 1 in 200 stories, and never fewer than 10 (a small
  // inbox has no word frequencies worth the name; the thresholds on likeness do the work there).
  const rareDf = Math.max(10, Math.floor(total / 200));
  // Words more common than this index nothing: they cannot name an event, and their lists are long.
  const indexDf = Math.max(20, Math.floor(total / 1000));
  // Weighted as though among at least IDF_FLOOR stories: in a small inbox a word met once is not
  // thereby telling, and the stop words already leave out what every story says.
  const idf = Float64Array.from(df, (n) => Math.log(1 + Math.max(total, IDF_FLOOR) / n));
  const norm = (tokens: Int32Array) => {
    let sum = 0;
    for (const t of tokens) sum += idf[t]! * idf[t]!;
    return Math.sqrt(sum);
  };
  for (const doc of [...publishedDocs, ...pendingDocs]) {
    doc.titleNorm = norm(doc.title);
    doc.summaryNorm = norm(doc.summary);
  }

  const cosine = (a: Int32Array, an: number, b: Int32Array, bn: number) => {
    if (an === 0 || bn === 0) return 0;
    let i = 0;
    let j = 0;
    let dot = 0;
    while (i < a.length && j < b.length) {
      if (a[i] === b[j]) {
        dot += idf[a[i]!]! * idf[a[i]!]!;
        i++;
        j++;
      } else if (a[i]! < b[j]!) i++;
      else j++;
    }
    return dot / (an * bn);
  };
  const rareShared = (a: Int32Array, b: Int32Array) => {
    let i = 0;
    let j = 0;
    let n = 0;
    while (i < a.length && j < b.length) {
      if (a[i] === b[j]) {
        if (df[a[i]!]! <= rareDf) n++;
        i++;
        j++;
      } else if (a[i]! < b[j]!) i++;
      else j++;
    }
    return n;
  };

  /** How `a` matches `b`, or null: the whole rule of what counts as one story. */
  const match = (a: Doc, b: Doc): SameStoryMatch | null => {
    const apart = Math.abs(a.time - b.time);
    const hoursApart = Math.round(apart / 3_600_000);
    if (apart <= SAME_TEXT_DAYS * DAY_MS && a.words >= SAME_TEXT_MIN_WORDS && b.words >= SAME_TEXT_MIN_WORDS && a.numbers === b.numbers) {
      if (a.exactKey === b.exactKey) return { kind: "same-text", identical: true, phrasesShared: 1, hoursApart };
      // Jaccard can be no more than the smaller set over the larger: most pairs stop here.
      const [few, many] = a.phrases.length < b.phrases.length ? [a.phrases.length, b.phrases.length] : [b.phrases.length, a.phrases.length];
      if (few >= SAME_TEXT_JACCARD * many) {
        const shared = jaccardSorted(a.phrases, b.phrases);
        if (shared >= SAME_TEXT_JACCARD) return { kind: "same-text", identical: false, phrasesShared: shared, hoursApart };
      }
    }
    if (apart > SIMILAR_DAYS * DAY_MS) return null;
    // Alike is not enough from one outlet: its own template headlines look alike by design.
    if (a.sourceKey === b.sourceKey) return null;
    if (a.input.linkHost && a.input.linkHost === b.input.linkHost) return null;
    if (a.summary.length < SUMMARY_MIN_TOKENS || b.summary.length < SUMMARY_MIN_TOKENS) return null;
    const titles = cosine(a.title, a.titleNorm, b.title, b.titleNorm);
    if (titles < SIMILAR_TITLE) return null;
    const summaries = cosine(a.summary, a.summaryNorm, b.summary, b.summaryNorm);
    if (summaries < SIMILAR_SUMMARY) return null;
    if (rareShared(a.all, b.all) < SIMILAR_RARE_SHARED || rareShared(a.title, b.title) < SIMILAR_RARE_IN_TITLES) return null;
    return { kind: "similar", titles, summaries, hoursApart };
  };
  const strength = (m: SameStoryMatch) => (m.kind === "same-text" ? 2 + m.phrasesShared : m.titles + m.summaries);

  // Each story is indexed by its rarest words that another story also uses (a word of its own finds
  // nothing), and none too common to name anything.
  const indexWords = (doc: Doc) =>
    Array.from(doc.all)
      .filter((t) => df[t]! >= 2 && df[t]! <= indexDf)
      .sort((x, y) => df[x]! - df[y]! || x - y)
      .slice(0, INDEX_WORDS);

  const byTime = (x: Doc, y: Doc) => x.time - y.time || x.input.id - y.input.id;
  publishedDocs.sort(byTime);
  pendingDocs.sort(byTime);
  const docs = [...publishedDocs, ...pendingDocs];
  const windowMs = Math.max(SAME_TEXT_DAYS, SIMILAR_DAYS) * DAY_MS;

  // Published stories: every one, sorted by time per word, searched within the window both ways.
  const publishedPostings = new Map<number, number[]>();
  publishedDocs.forEach((doc, index) => {
    for (const word of indexWords(doc)) {
      const list = publishedPostings.get(word);
      if (list) list.push(index);
      else publishedPostings.set(word, [index]);
    }
  });
  // Pending stories: added as they are read (earliest first), so a story meets only earlier ones.
  const pendingPostings = new Map<number, number[]>();

  // Group of each doc (index into `docs`), by its first story's doc index.
  const leaderOf = new Int32Array(docs.length).fill(-1);
  const matchOf = new Map<number, SameStoryMatch>();
  const seen = new Int32Array(docs.length).fill(-1);
  const hits = new Int32Array(docs.length);

  const firstAtOrAfter = (list: number[], time: number, timeOf: (i: number) => number) => {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (timeOf(list[mid]!) < time) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  pendingDocs.forEach((doc, p) => {
    const self = publishedDocs.length + p;
    const candidates: number[] = [];
    const words = indexWords(doc);
    // A candidate shares two of this story's index words (one, when it has only one).
    const needed = Math.min(2, words.length);
    const meet = (other: number) => {
      if (seen[other] !== self) {
        seen[other] = self;
        hits[other] = 0;
      }
      if (++hits[other]! === needed) candidates.push(other);
    };
    for (const word of words) {
      const fromPublished = publishedPostings.get(word);
      if (fromPublished) {
        for (let k = firstAtOrAfter(fromPublished, doc.time - windowMs, (i) => publishedDocs[i]!.time); k < fromPublished.length; k++) {
          const other = fromPublished[k]!;
          if (publishedDocs[other]!.time > doc.time + windowMs) break;
          meet(other);
        }
      }
      const fromPending = pendingPostings.get(word);
      if (fromPending) {
        for (let k = fromPending.length - 1; k >= 0; k--) {
          const other = fromPending[k]!;
          if (docs[other]!.time < doc.time - windowMs) break;
          meet(other);
        }
      }
      const list = pendingPostings.get(word);
      if (list) list.push(self);
      else pendingPostings.set(word, [self]);
    }

    // The best match whose group this story belongs to: published stories first, then the strongest.
    const found: { other: number; m: SameStoryMatch }[] = [];
    for (const other of candidates) {
      const m = match(doc, docs[other]!);
      if (m) found.push({ other, m });
    }
    found.sort((x, y) => Number(docs[y.other]!.published) - Number(docs[x.other]!.published) || strength(y.m) - strength(x.m));
    for (const { other, m } of found) {
      const leader = leaderOf[other]! === -1 ? other : leaderOf[other]!;
      const withLeader = leader === other ? m : match(doc, docs[leader]!);
      if (!withLeader) continue;
      leaderOf[leader] = leader;
      leaderOf[self] = leader;
      matchOf.set(self, withLeader);
      return;
    }
  });

  const members = new Map<number, number[]>();
  leaderOf.forEach((leader, index) => {
    if (leader === -1 || leader === index) return;
    const list = members.get(leader);
    if (list) list.push(index);
    else members.set(leader, [index]);
  });

  const groups: SameStoryGroup[] = [];
  for (const [leaderIndex, rest] of members) {
    const leader = docs[leaderIndex]!;
    const all = [leader, ...rest.map((i) => docs[i]!)];
    const sources = new Set(all.map((d) => d.sourceKey)).size;
    const others = rest.map((i) => docs[i]!);
    const spanHours = Math.round((Math.max(...all.map((d) => d.time)) - Math.min(...all.map((d) => d.time))) / 3_600_000);
    const pendingMembers: SameStoryMember[] = rest.map((i) => ({
      id: docs[i]!.input.id,
      match: matchOf.get(i)!,
      reason: memberReason(matchOf.get(i)!, leader),
    }));
    if (!leader.published) {
      pendingMembers.unshift({ id: leader.input.id, match: null, reason: leaderReason(others, sources, spanHours) });
    }
    groups.push({ groupId: leader.input.id, published: leader.published, pending: pendingMembers, sources });
  }
  return groups.sort((a, b) => a.groupId - b.groupId);
}

const percent = (share: number) => `${Math.round(share * 100)}%`;

function within(hours: number): string {
  if (hours < 24) return "within a day";
  const days = Math.ceil(hours / 24);
  return `within ${days} days`;
}

function named(doc: Doc): string {
  return doc.input.sourceName ? `#${doc.input.id} (${doc.input.sourceName})` : `#${doc.input.id}`;
}

/** Why a story is in its group, said against the group's first story. */
function memberReason(m: SameStoryMatch, first: Doc): string {
  const whom = first.published ? `already published as ${named(first)}` : named(first);
  if (m.kind === "same-text") {
    const what = m.identical ? "Same title and summary as" : `Nearly the same text (${percent(m.phrasesShared)} of its phrases) as`;
    return first.published ? `${what.replace(" as", "")}: ${whom}` : `${what} ${whom}`;
  }
  const alike = `Titles ${percent(m.titles)} alike, summaries ${percent(m.summaries)} alike`;
  return first.published ? `${alike}, ${within(m.hoursApart)}: ${whom}` : `${alike} with ${whom}, ${within(m.hoursApart)}`;
}

/** Why the first (pending) story of a group is in it. */
function leaderReason(others: Doc[], sources: number, spanHours: number): string {
  const ids = others.map((d) => d.input.id).sort((a, b) => a - b).map((id) => `#${id}`);
  const listed = ids.length > 5 ? `${ids.slice(0, 5).join(", ")} and ${ids.length - 5} more` : ids.join(", ");
  const fromSources = sources === 1 ? "from one source" : `from ${sources} sources`;
  return `First of ${others.length + 1} reports of this story, ${fromSources}, ${within(spanHours)} (also ${listed})`;
}
