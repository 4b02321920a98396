// Model selection for `npm run bench:triage` without looking at the inbox: settings are compared only
// on time-ordered folds inside the decisions (the older 70% of the data). The decisions are cut into
// seven parts by date; fold k trains on parts 1..k and validates on part k + 1, for k = 3..6, so every
// model is judged on stories newer than everything it learned from, as in the product.
import { rankCategories, trainCategorizer, type CategorizedStory, type CategorizerOptions } from "~/domain/triage/categorizer";
import { scoreStory, trainRanker, type RankerDecision, type RankerOptions } from "~/domain/triage/ranker";
import { FEATURE_OPTIONS_V1 } from "~/domain/triage/text-features";
import { seededRandom } from "~/lib/seeded-random";

/** Where the folds cut the decisions: fold k trains on [0, cut[k]) and validates on [cut[k], cut[k + 1]). */
export const FOLD_PARTS = 7;
export const FIRST_VALIDATION_PART = 3;

export type Fold = { trainEnd: number; validStart: number; validEnd: number };

/** The time-ordered folds over `n` decisions (oldest first). */
export function timeFolds(n: number, parts = FOLD_PARTS, first = FIRST_VALIDATION_PART): Fold[] {
  const cut = (k: number) => Math.round((n * k) / parts);
  return Array.from({ length: parts - first }, (_, i) => ({ trainEnd: cut(first + i), validStart: cut(first + i), validEnd: cut(first + i + 1) }));
}

/** Area under the ROC curve: the chance that a random positive scores above a random negative (ties count half). */
export function auc(scores: number[], positives: boolean[]): number {
  const { correct, pairs } = orderedPairs(scores, positives);
  return pairs === 0 ? Number.NaN : correct / pairs;
}

/** The (positive, negative) pairs of a list and how many of them the scores order right (ties count half). */
export function orderedPairs(scores: number[], positives: boolean[]): { correct: number; pairs: number } {
  const order = scores.map((s, i) => ({ s, p: positives[i]! })).sort((a, b) => a.s - b.s);
  let rankSum = 0;
  let nPos = 0;
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j < order.length && order[j]!.s === order[i]!.s) j += 1;
    const midRank = (i + 1 + j) / 2;
    for (let k = i; k < j; k += 1) {
      if (order[k]!.p) {
        rankSum += midRank;
        nPos += 1;
      }
    }
    i = j;
  }
  const nNeg = order.length - nPos;
  return { correct: rankSum - (nPos * (nPos + 1)) / 2, pairs: nPos * nNeg };
}

/** How many positives are in the top `fraction` of the list sorted by score (ties: newest first), of how many. */
export function foundInTop(scores: number[], positives: boolean[], fraction: number): { found: number; total: number } {
  const order = scores.map((s, i) => ({ s, i })).sort((a, b) => b.s - a.s || b.i - a.i);
  const top = order.slice(0, Math.ceil(order.length * fraction));
  return { found: top.filter(({ i }) => positives[i]).length, total: positives.filter(Boolean).length };
}

/** The share of all positives found in the top `fraction` of the list sorted by score. */
export function shareInTop(scores: number[], positives: boolean[], fraction: number): number {
  const { found, total } = foundInTop(scores, positives, fraction);
  return total === 0 ? Number.NaN : found / total;
}

/**
 * How far a figure of a list could move by chance: the 2.5th and 97.5th percentiles of `figure` over
 * `resamples` lists drawn from the items with replacement (the percentile bootstrap), seeded so that
 * a run gives the same interval every time.
 */
export function bootstrapInterval<T>(items: readonly T[], figure: (sample: T[]) => number, resamples = 1_000, seed = 34): [number, number] {
  const random = seededRandom(seed);
  const figures: number[] = [];
  for (let r = 0; r < resamples; r += 1) {
    const sample = Array.from({ length: items.length }, () => items[Math.floor(random() * items.length)]!);
    const value = figure(sample);
    if (!Number.isNaN(value)) figures.push(value);
  }
  figures.sort((a, b) => a - b);
  const at = (q: number) => figures[Math.min(figures.length - 1, Math.max(0, Math.round(q * (figures.length - 1))))] ?? Number.NaN;
  return [at(0.025), at(0.975)];
}

/**
 * A ranking setting's figures over the folds: the AUC over the (published, rejected) pairs of each
 * fold, pooled (a fold with few published stories counts for few pairs), and the share of published
 * stories found in the top 10% of their fold's list.
 */
export type RankingFigures = {
  auc: number;
  top10: number;
  positives: number;
  /** The sum of the scores over the validation stories: how many publications the scores foretell. */
  expected: number;
  perFold: { auc: number; found: number; total: number }[];
  trainMs: number;
};

export function validateRanker(decisions: readonly RankerDecision[], options: RankerOptions, folds = timeFolds(decisions.length)): RankingFigures {
  let correct = 0;
  let pairs = 0;
  let found = 0;
  let total = 0;
  let trainMs = 0;
  let expected = 0;
  const perFold: RankingFigures["perFold"] = [];
  for (const fold of folds) {
    const start = performance.now();
    const model = trainRanker(decisions.slice(0, fold.trainEnd), options);
    trainMs += performance.now() - start;
    const valid = decisions.slice(fold.validStart, fold.validEnd);
    const scores = valid.map((d) => scoreStory(model, d, { reasons: 0 }).score);
    const positives = valid.map((d) => d.published);
    for (const score of scores) expected += score;
    const ordered = orderedPairs(scores, positives);
    const top = foundInTop(scores, positives, 0.1);
    correct += ordered.correct;
    pairs += ordered.pairs;
    found += top.found;
    total += top.total;
    perFold.push({ auc: ordered.pairs === 0 ? Number.NaN : ordered.correct / ordered.pairs, found: top.found, total: top.total });
  }
  return { auc: correct / pairs, top10: found / total, positives: total, expected, perFold, trainMs: trainMs / folds.length };
}

/**
 * What ranking settings are chosen by: the mean of the validation AUC and the top-10% share, the
 * two figures the issue sets targets for (equal weight: neither is given up for the other).
 */
export const rankingCriterion = (f: RankingFigures): number => (f.auc + f.top10) / 2;

export type CategoryFigures = {
  right: number;
  top3: number;
  stories: number;
  trainMs: number;
  /** At each minimum confidence: the share of stories given a suggestion, and how many of those are right. */
  byConfidence: { threshold: number; suggested: number; rightWhenSuggested: number }[];
};

const THRESHOLDS = [0.3, 0.4, 0.5];

/**
 * A category setting's figures over the folds: the share of validation stories whose most likely
 * category is theirs, and among the three most likely. Each fold trains on the `window` stories just
 * before its validation part (the product trains on its newest published stories), or on all of them.
 */
export function validateCategorizer(stories: readonly CategorizedStory[], options: CategorizerOptions, window: number | null, folds = timeFolds(stories.length)): CategoryFigures {
  let right = 0;
  let top3 = 0;
  let count = 0;
  let trainMs = 0;
  const atThreshold = THRESHOLDS.map(() => ({ suggested: 0, right: 0 }));
  for (const fold of folds) {
    const start = performance.now();
    const model = trainCategorizer(stories.slice(window === null ? 0 : Math.max(0, fold.trainEnd - window), fold.trainEnd), options);
    trainMs += performance.now() - start;
    for (const story of stories.slice(fold.validStart, fold.validEnd)) {
      const ranking = rankCategories(model, story);
      const isRight = ranking[0]?.slug === story.categorySlug;
      if (isRight) right += 1;
      if (ranking.slice(0, 3).some((c) => c.slug === story.categorySlug)) top3 += 1;
      count += 1;
      THRESHOLDS.forEach((threshold, t) => {
        if ((ranking[0]?.confidence ?? 0) < threshold) return;
        atThreshold[t]!.suggested += 1;
        if (isRight) atThreshold[t]!.right += 1;
      });
    }
  }
  const byConfidence = THRESHOLDS.map((threshold, t) => ({
    threshold,
    suggested: atThreshold[t]!.suggested / count,
    rightWhenSuggested: atThreshold[t]!.right / Math.max(1, atThreshold[t]!.suggested),
  }));
  return { right: right / count, top3: top3 / count, stories: count, trainMs: trainMs / folds.length, byConfidence };
}

/** The settings of the ranking model before this selection (the product's defaults until then). */
export const RANKER_BEFORE: Required<Omit<RankerOptions, "maxIterations" | "calibrate" | "blendShare">> = {
  ...FEATURE_OPTIONS_V1,
  algorithm: "logistic",
  c: 10,
  alpha: 0.1,
  balance: 1,
  minDf: 2,
  maxFeatures: 40_000,
};

/** The settings of the category model before this selection. */
export const CATEGORIZER_BEFORE: Required<Omit<CategorizerOptions, "maxFeatures" | "minConfidence" | "blendShare">> = {
  ...FEATURE_OPTIONS_V1,
  algorithm: "softmax",
  titlePairs: false,
  c: 10,
  alpha: 1,
  minDf: 2,
  maxWeightsPerCategory: 2_500,
  maxIterations: 50,
};

/** How many settings a row changes from the settings before it (a setting that did not exist counts). */
export function changes(before: object, row: object): number {
  return Object.entries(row).filter(([key, value]) => (before as Record<string, unknown>)[key] !== value).length;
}

/**
 * The rule settings are chosen by: the best criterion, or, among the rows within `tolerance` of it,
 * the one that changes fewest settings (then the best of those). Differences smaller than one
 * validation story are noise; with ~40 published stories in validation, one of them is 0.013 of the
 * top-10% share, so a tolerance of 0.005 only breaks near-ties.
 */
export function choose<R>(rows: readonly R[], criterion: (row: R) => number, changed: (row: R) => number, tolerance: number): R {
  const best = Math.max(...rows.map(criterion));
  const close = rows.filter((row) => criterion(row) >= best - tolerance);
  return close.sort((a, b) => changed(a) - changed(b) || criterion(b) - criterion(a))[0]!;
}

type Row<T> = [label: string, overrides: T];

const cross = <T>(lists: T[][]): T[][] => lists.reduce<T[][]>((acc, list) => acc.flatMap((head) => list.map((x) => [...head, x])), [[]]);

/** The ranking settings compared on validation: each option alone, then the promising ones together. */
export const RANKING_GRID: Row<RankerOptions>[] = [
  ["before (logistic, C=10, min df 2)", {}],
  ...[0.1, 0.3, 1, 3, 30, 100].map((c): Row<RankerOptions> => [`C=${c}`, { c }]),
  ["class weight sqrt-balanced", { balance: 0.5 }],
  ["no class weights", { balance: 0 }],
  ["binary tf", { tf: "binary" }],
  ["raw tf", { tf: "raw" }],
  ["no L2 norm, C=1", { l2: false, c: 1 }],
  ["no L2 norm, C=0.1", { l2: false, c: 0.1 }],
  ["title words also apart", { titleWords: "also" }],
  ["title words only apart", { titleWords: "apart" }],
  ["summary word pairs", { summaryPairs: true }],
  ["title letter 3-5-grams", { titleLetters: true }],
  ["no title pairs", { titlePairs: false }],
  ["no plural folding", { stemming: false }],
  ["min df 1", { minDf: 1 }],
  ["min df 3", { minDf: 3 }],
  ...[0.03, 0.1, 0.3, 1].map((alpha): Row<RankerOptions> => [`naive Bayes, alpha=${alpha}`, { algorithm: "naive-bayes", alpha }]),
  ...[0.01, 0.03].map((alpha): Row<RankerOptions> => [`naive Bayes, alpha=${alpha}, min df 1`, { algorithm: "naive-bayes", alpha, minDf: 1 }]),
  ...[1, 0.1, 0.01].map((c): Row<RankerOptions> => [`NB-weighted logistic, C=${c}`, { algorithm: "nb-logistic", c }]),
  ...[1, 10].map((c): Row<RankerOptions> => [`logistic + naive Bayes average, C=${c}`, { algorithm: "blend", blendShare: 0.5, c }]),
  ...cross<number | string | boolean>([[0.03, 0.1, 0.3, 1], ["sublinear", "binary"], [true, false], [true, false]]).map(([c, tf, titlePairs, stemming]): Row<RankerOptions> => [
    `min df 1, C=${c}, ${tf} tf${titlePairs ? "" : ", no title pairs"}${stemming ? "" : ", no plural folding"}`,
    { minDf: 1, c: c as number, tf: tf as "sublinear" | "binary", titlePairs: titlePairs as boolean, stemming: stemming as boolean },
  ]),
  ["min df 1, C=0.1, title words also apart", { minDf: 1, c: 0.1, titleWords: "also" }],
  ["min df 1, C=0.1, title words only apart", { minDf: 1, c: 0.1, titleWords: "apart" }],
  ["min df 1, C=0.1, summary word pairs", { minDf: 1, c: 0.1, summaryPairs: true }],
  ["min df 1, C=0.1, title letter 3-5-grams", { minDf: 1, c: 0.1, titleLetters: true }],
  ["min df 1, C=0.1, title letters, no title pairs", { minDf: 1, c: 0.1, titleLetters: true, titlePairs: false }],
  ["min df 1, C=0.1, sqrt-balanced", { minDf: 1, c: 0.1, balance: 0.5 }],
  ["min df 1, C=1, sqrt-balanced", { minDf: 1, c: 1, balance: 0.5 }],
  ["min df 1, C=0.1, no L2 norm", { minDf: 1, c: 0.1, l2: false }],
  ["min df 1, C=0.01, no L2 norm", { minDf: 1, c: 0.01, l2: false }],
  ["min df 1, C=0.1, average with naive Bayes alpha=0.03", { minDf: 1, c: 0.1, algorithm: "blend", blendShare: 0.5, alpha: 0.03 }],
  ["min df 1, C=0.1, average with naive Bayes alpha=0.1", { minDf: 1, c: 0.1, algorithm: "blend", blendShare: 0.5, alpha: 0.1 }],
  ["min df 1, C=0.1, NB-weighted, alpha=1", { minDf: 1, c: 0.1, algorithm: "nb-logistic", alpha: 1 }],
  // With min df 1 the 40,000-feature cap binds from about 5,000 decisions on.
  ["min df 1, C=0.1, at most 100,000 features", { minDf: 1, c: 0.1, maxFeatures: 100_000 }],
  ["min df 1, C=0.3, at most 100,000 features", { minDf: 1, c: 0.3, maxFeatures: 100_000 }],
  ["min df 1, C=0.1, at most 20,000 features", { minDf: 1, c: 0.1, maxFeatures: 20_000 }],
  ["C=0.1, at most 100,000 features", { c: 0.1, maxFeatures: 100_000 }],
];

/** The category settings compared on validation. */
export const CATEGORY_GRID: Row<CategorizerOptions>[] = [
  ["before (softmax, C=10, 50 iterations)", {}],
  ...[1, 3, 10, 30].map((c): Row<CategorizerOptions> => [`softmax, C=${c}, 200 iterations`, { c, maxIterations: 200 }]),
  ["softmax, no weight cap", { maxWeightsPerCategory: 1_000_000 }],
  ["softmax, min df 1", { minDf: 1 }],
  ["softmax, title pairs", { titlePairs: true }],
  ["softmax, title words also apart", { titleWords: "also" }],
  ["softmax, title words only apart", { titleWords: "apart" }],
  ["softmax, binary tf", { tf: "binary" }],
  ...[1, 3, 10, 30].map((c): Row<CategorizerOptions> => [`one-vs-rest logistic, C=${c}`, { algorithm: "one-vs-rest", c, maxIterations: 100 }]),
  ...[0.1, 0.3, 1, 2, 4].map((alpha): Row<CategorizerOptions> => [`complement NB, alpha=${alpha}`, { algorithm: "complement-nb", alpha }]),
  ["complement NB, min df 1", { algorithm: "complement-nb", minDf: 1 }],
  ["complement NB, binary tf", { algorithm: "complement-nb", tf: "binary" }],
  ["complement NB, no L2 norm", { algorithm: "complement-nb", l2: false }],
  ["complement NB, title pairs", { algorithm: "complement-nb", titlePairs: true }],
  ["complement NB, title words also apart", { algorithm: "complement-nb", titleWords: "also" }],
  ["complement NB, summary word pairs", { algorithm: "complement-nb", summaryPairs: true }],
  ["complement NB, title letter 3-5-grams", { algorithm: "complement-nb", titleLetters: true }],
  ...[0.2, 0.3, 0.5, 0.7].map((blendShare): Row<CategorizerOptions> => [`softmax + complement NB, share ${blendShare}`, { algorithm: "blend", blendShare }]),
  ["softmax + complement NB 0.3, title pairs", { algorithm: "blend", blendShare: 0.3, titlePairs: true }],
  ["softmax + complement NB 0.3, 30 iterations", { algorithm: "blend", blendShare: 0.3, maxIterations: 30 }],
  ["softmax + complement NB 0.3, 100 iterations", { algorithm: "blend", blendShare: 0.3, maxIterations: 100 }],
  ["softmax + complement NB 0.3, C=3", { algorithm: "blend", blendShare: 0.3, c: 3 }],
  ["softmax + complement NB 0.3, C=30", { algorithm: "blend", blendShare: 0.3, c: 30 }],
  ["softmax + complement NB 0.3, alpha=0.5", { algorithm: "blend", blendShare: 0.3, alpha: 0.5 }],
  ["softmax + complement NB 0.3, alpha=2", { algorithm: "blend", blendShare: 0.3, alpha: 2 }],
  ["softmax + complement NB 0.3, binary tf", { algorithm: "blend", blendShare: 0.3, tf: "binary" }],
  ["softmax + complement NB 0.3, title words also apart", { algorithm: "blend", blendShare: 0.3, titleWords: "also" }],
  ["softmax + complement NB 0.3, min df 1", { algorithm: "blend", blendShare: 0.3, minDf: 1 }],
  ["softmax + complement NB 0.3, 5,000 weights per category", { algorithm: "blend", blendShare: 0.3, maxWeightsPerCategory: 5_000 }],
  ["softmax + complement NB 0.3, no weight cap", { algorithm: "blend", blendShare: 0.3, maxWeightsPerCategory: 1_000_000 }],
];
