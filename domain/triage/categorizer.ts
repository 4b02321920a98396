import { minimize } from "./lbfgs";
import { trainLogistic } from "./logistic";
import {
  buildVocabulary,
  DEFAULT_FEATURE_OPTIONS,
  extractFeatures,
  featureOptionsFromJson,
  round4,
  type FeatureOptions,
  type SparseVector,
  type TriageText,
  type Vocabulary,
  vectorize,
  vocabularyFromJson,
  vocabularyToJson,
  type VocabularyJson,
} from "./text-features";

// The category a pending story most likely belongs in, learned from the desk's published stories:
// by default a multinomial (softmax) logistic regression on the same tf-idf features as the ranking,
// with complement naive Bayes' scores blended in (chosen on time-ordered validation folds,
// bench/triage-validation.ts).

/** A published story and the category it was published in. */
export type CategorizedStory = {
  title: string;
  summary: string | null;
  sourceId: number | null;
  linkHost: string | null;
  categorySlug: string;
};

/**
 * "softmax": multinomial logistic regression; "one-vs-rest": one binary logistic regression per
 * category; "complement-nb": complement naive Bayes (Rennie et al. 2003); "blend": the softmax with
 * a share of complement naive Bayes added to its scores. Each is a linear score per category, turned
 * into confidences by a softmax.
 */
export type CategorizerAlgorithm = "softmax" | "one-vs-rest" | "complement-nb" | "blend";

export type CategorizerOptions = Partial<FeatureOptions> & {
  algorithm?: CategorizerAlgorithm;
  /** Inverse regularisation strength (as scikit-learn's C). */
  c?: number;
  /** Additive smoothing of complement naive Bayes. */
  alpha?: number;
  /** In "blend", complement naive Bayes' share of the scores (0..1). */
  blendShare?: number;
  minDf?: number;
  maxFeatures?: number;
  /** The strongest weights kept per category, which bounds the stored model. */
  maxWeightsPerCategory?: number;
  maxIterations?: number;
  /** Below this probability no category is suggested. */
  minConfidence?: number;
};

/** The stored category model (jsonb in triage_models, kind 'category'). */
export type CategorizerModel = {
  version: 1;
  kind: "category";
  trainedOn: { stories: number; categories: number };
  featureOptions: FeatureOptions;
  minConfidence: number;
  vocabulary: VocabularyJson;
  /** One entry per category that had enough stories, with its bias and its strongest feature weights. */
  categories: { slug: string; stories: number; bias: number; indices: number[]; weights: number[] }[];
};

export type CategorySuggestion = { slug: string; confidence: number };

/** A category needs this many published stories to be suggested: one story is an accident, not a pattern. */
export const MIN_STORIES_PER_CATEGORY = 3;

/** Below this confidence no category is preselected (chosen by measurement, docs/benchmarks.md). */
export const MIN_CATEGORY_CONFIDENCE = 0.4;

/** The settings the triage job trains with (chosen on validation folds in bench:triage). */
export const CATEGORIZER_DEFAULTS: Readonly<Required<CategorizerOptions>> = {
  ...DEFAULT_FEATURE_OPTIONS,
  titlePairs: false,
  algorithm: "blend",
  c: 10,
  alpha: 1,
  blendShare: 0.5,
  minDf: 2,
  maxFeatures: 20_000,
  maxWeightsPerCategory: 2_500,
  // Measured on HuffPost's headlines: accuracy stops improving well before 50 iterations (it even
  // drifts down as the fit tightens), while each iteration costs a pass over every story.
  maxIterations: 50,
  minConfidence: MIN_CATEGORY_CONFIDENCE,
};

function softmaxInPlace(scores: Float64Array): void {
  let max = Number.NEGATIVE_INFINITY;
  for (const s of scores) max = Math.max(max, s);
  let sum = 0;
  for (let k = 0; k < scores.length; k += 1) {
    scores[k] = Math.exp(scores[k]! - max);
    sum += scores[k]!;
  }
  for (let k = 0; k < scores.length; k += 1) scores[k]! /= sum;
}

/** Trains the category model on published stories; categories with too few stories are left out. Deterministic. */
export function trainCategorizer(published: readonly CategorizedStory[], options: CategorizerOptions = {}): CategorizerModel {
  const settings = { ...CATEGORIZER_DEFAULTS, ...options };
  const featureOptions = featureOptionsFromJson(settings);
  const valid = published.filter((s) => s !== null && typeof s === "object" && typeof s.categorySlug === "string" && s.categorySlug !== "");
  const perCategory = new Map<string, number>();
  for (const story of valid) perCategory.set(story.categorySlug, (perCategory.get(story.categorySlug) ?? 0) + 1);
  const slugs = [...perCategory.entries()]
    .filter(([, count]) => count >= MIN_STORIES_PER_CATEGORY)
    .map(([slug]) => slug)
    .sort();
  const base = { version: 1 as const, kind: "category" as const, featureOptions, minConfidence: settings.minConfidence };
  if (slugs.length === 0) {
    return { ...base, trainedOn: { stories: valid.length, categories: 0 }, vocabulary: { features: [], idf: [] }, categories: [] };
  }
  if (slugs.length === 1) {
    // One category to choose from: always it, as sure as the desk has been.
    const slug = slugs[0]!;
    return {
      ...base,
      trainedOn: { stories: valid.length, categories: 1 },
      vocabulary: { features: [], idf: [] },
      categories: [{ slug, stories: perCategory.get(slug)!, bias: 0, indices: [], weights: [] }],
    };
  }
  const classOf = new Map(slugs.map((slug, k) => [slug, k]));
  const training = valid.filter((s) => classOf.has(s.categorySlug));
  const counts = training.map((s) => extractFeatures(s, featureOptions));
  const vocabulary = buildVocabulary(counts, { minDf: settings.minDf, maxFeatures: settings.maxFeatures });
  const vectors = counts.map((c) => vectorize(c, vocabulary, featureOptions));
  const labels = Int32Array.from(training, (s) => classOf.get(s.categorySlug)!);
  const d = vocabulary.features.length;
  const params = trainWeights(settings, vectors, labels, slugs.length, d);
  const classes = slugs.length;
  const categories = slugs.map((slug, k) => {
    const weightOf = (j: number) => params[j * classes + k]!;
    // Keep the strongest weights: the rest barely move a probability and would bloat the stored model.
    const order = Array.from({ length: d }, (_, j) => j)
      .filter((j) => weightOf(j) !== 0)
      .sort((a, b) => Math.abs(weightOf(b)) - Math.abs(weightOf(a)) || a - b)
      .slice(0, settings.maxWeightsPerCategory)
      .sort((a, b) => a - b);
    return {
      slug,
      stories: perCategory.get(slug)!,
      bias: round4(params[d * classes + k]!),
      indices: order,
      weights: order.map((j) => round4(weightOf(j))),
    };
  });
  return { ...base, trainedOn: { stories: valid.length, categories: slugs.length }, vocabulary: vocabularyToJson(vocabulary), categories };
}

/**
 * Softmax regression with an L2 penalty on the weights, fitted by L-BFGS. Parameters are laid out
 * feature by feature (the categories' weights of one feature side by side, biases last): a story
 * touches few features, and reading each one's weights in a row is several times faster than
 * jumping between one row per category.
 */
function trainSoftmax(vectors: SparseVector[], labels: Int32Array, classes: number, dimension: number, c: number, maxIterations: number): Float64Array {
  const n = vectors.length;
  const biasOffset = dimension * classes;
  const lambda = 1 / (c * n);
  const scores = new Float64Array(classes);
  const objective = (params: Float64Array, grad: Float64Array): number => {
    grad.fill(0);
    let loss = 0;
    for (let i = 0; i < n; i += 1) {
      const { indices, values } = vectors[i]!;
      for (let k = 0; k < classes; k += 1) scores[k] = params[biasOffset + k]!;
      for (let t = 0; t < indices.length; t += 1) {
        const offset = indices[t]! * classes;
        const x = values[t]!;
        for (let k = 0; k < classes; k += 1) scores[k]! += params[offset + k]! * x;
      }
      softmaxInPlace(scores);
      const label = labels[i]!;
      loss -= Math.log(Math.max(scores[label]!, 1e-300));
      scores[label]! -= 1;
      for (let k = 0; k < classes; k += 1) {
        scores[k]! /= n;
        grad[biasOffset + k]! += scores[k]!;
      }
      for (let t = 0; t < indices.length; t += 1) {
        const offset = indices[t]! * classes;
        const x = values[t]!;
        for (let k = 0; k < classes; k += 1) grad[offset + k]! += scores[k]! * x;
      }
    }
    let penalty = 0;
    for (let j = 0; j < biasOffset; j += 1) {
      const w = params[j]!;
      penalty += w * w;
      grad[j]! += lambda * w;
    }
    return loss / n + (lambda / 2) * penalty;
  };
  return minimize(objective, new Float64Array(biasOffset + classes), { maxIterations, memory: 5, gradientTolerance: 1e-5 });
}

/**
 * How widely a model's scores for the categories of a story spread around their mean, over the
 * training stories (the softmax reads only these differences).
 */
function spreadOf(vectors: SparseVector[], classes: number, dimension: number, params: Float64Array): number {
  let squares = 0;
  const scores = new Float64Array(classes);
  for (const { indices, values } of vectors) {
    for (let k = 0; k < classes; k += 1) scores[k] = params[dimension * classes + k]!;
    for (let t = 0; t < indices.length; t += 1) {
      const offset = indices[t]! * classes;
      for (let k = 0; k < classes; k += 1) scores[k]! += params[offset + k]! * values[t]!;
    }
    let mean = 0;
    for (let k = 0; k < classes; k += 1) mean += scores[k]!;
    mean /= classes;
    for (let k = 0; k < classes; k += 1) squares += (scores[k]! - mean) ** 2;
  }
  return Math.sqrt(squares / Math.max(1, vectors.length * classes));
}

/** The weights (feature-major, biases last) of the algorithm the settings name. */
function trainWeights(settings: Required<CategorizerOptions>, vectors: SparseVector[], labels: Int32Array, classes: number, dimension: number): Float64Array {
  switch (settings.algorithm) {
    case "complement-nb":
      return trainComplementNaiveBayes(vectors, labels, classes, dimension, settings.alpha);
    case "one-vs-rest":
      return trainOneVsRest(vectors, labels, classes, dimension, settings.c, settings.maxIterations);
    case "blend": {
      // Complement naive Bayes brought to the softmax's spread, then a share of it added: the two
      // err on different stories (validated in bench:triage). The sum is again one weight per feature and category.
      const softmax = trainSoftmax(vectors, labels, classes, dimension, settings.c, settings.maxIterations);
      const bayes = trainComplementNaiveBayes(vectors, labels, classes, dimension, settings.alpha);
      const bayesSpread = spreadOf(vectors, classes, dimension, bayes);
      const scale = bayesSpread > 0 ? spreadOf(vectors, classes, dimension, softmax) / bayesSpread : 0;
      const share = Math.min(1, Math.max(0, settings.blendShare));
      return softmax.map((w, i) => (1 - share) * w + share * scale * bayes[i]!);
    }
    default:
      return trainSoftmax(vectors, labels, classes, dimension, settings.c, settings.maxIterations);
  }
}

/** One binary logistic regression per category (itself against all others), in the softmax's layout. */
function trainOneVsRest(vectors: SparseVector[], labels: Int32Array, classes: number, dimension: number, c: number, maxIterations: number): Float64Array {
  const params = new Float64Array(dimension * classes + classes);
  for (let k = 0; k < classes; k += 1) {
    const fitted = trainLogistic(vectors, Array.from(labels, (label) => label === k), dimension, { c, maxIterations, balance: 0 });
    for (let j = 0; j < dimension; j += 1) params[j * classes + k] = fitted.weights[j]!;
    params[dimension * classes + k] = fitted.bias;
  }
  return params;
}

/**
 * Complement naive Bayes: a category's weight for a feature is minus the log of its smoothed share in
 * every other category's stories, which is steadier than its own share when categories differ in size.
 */
function trainComplementNaiveBayes(vectors: SparseVector[], labels: Int32Array, classes: number, dimension: number, alpha: number): Float64Array {
  const mass = new Float64Array(dimension * classes);
  const all = new Float64Array(dimension);
  const totals = new Float64Array(classes);
  let grandTotal = 0;
  vectors.forEach(({ indices, values }, i) => {
    const k = labels[i]!;
    for (let t = 0; t < indices.length; t += 1) {
      mass[indices[t]! * classes + k]! += values[t]!;
      all[indices[t]!]! += values[t]!;
      totals[k]! += values[t]!;
      grandTotal += values[t]!;
    }
  });
  const params = new Float64Array(dimension * classes + classes);
  for (let k = 0; k < classes; k += 1) {
    const denominator = grandTotal - totals[k]! + alpha * dimension;
    for (let j = 0; j < dimension; j += 1) {
      params[j * classes + k] = -Math.log((all[j]! - mass[j * classes + k]! + alpha) / denominator);
    }
  }
  // Centred per feature (which changes no ranking of categories), so that the weights kept are the
  // ones that tell categories apart rather than the rarest features.
  for (let j = 0; j < dimension; j += 1) {
    let mean = 0;
    for (let k = 0; k < classes; k += 1) mean += params[j * classes + k]!;
    mean /= classes;
    for (let k = 0; k < classes; k += 1) params[j * classes + k]! -= mean;
  }
  return params;
}

type PreparedCategorizer = {
  vocabulary: Vocabulary;
  featureOptions: FeatureOptions;
  minConfidence: number;
  slugs: string[];
  biases: Float64Array;
  // Per feature, the categories it speaks for and with what weight: scoring walks the story's features only.
  byFeature: Map<number, { category: number; weight: number }[]>;
};

const prepared = new WeakMap<object, PreparedCategorizer>();

function prepare(model: CategorizerModel): PreparedCategorizer {
  const cached = prepared.get(model);
  if (cached) return cached;
  const vocabulary = vocabularyFromJson(model?.vocabulary ?? { features: [], idf: [] });
  const categories = Array.isArray(model?.categories) ? model.categories.filter((c) => typeof c?.slug === "string") : [];
  const byFeature = new Map<number, { category: number; weight: number }[]>();
  categories.forEach((category, k) => {
    const indices = Array.isArray(category.indices) ? category.indices : [];
    indices.forEach((j, t) => {
      const weight = category.weights?.[t];
      if (!Number.isInteger(j) || !Number.isFinite(weight)) return;
      const list = byFeature.get(j) ?? [];
      list.push({ category: k, weight: weight! });
      byFeature.set(j, list);
    });
  });
  const result: PreparedCategorizer = {
    vocabulary,
    featureOptions: featureOptionsFromJson(model?.featureOptions),
    minConfidence: Number.isFinite(model?.minConfidence) ? model.minConfidence : MIN_CATEGORY_CONFIDENCE,
    slugs: categories.map((c) => c.slug),
    biases: Float64Array.from(categories, (c) => (Number.isFinite(c.bias) ? c.bias : 0)),
    byFeature,
  };
  if (model !== null && typeof model === "object") prepared.set(model, result);
  return result;
}

/** Every category the model knows with its probability for a story, most likely first. */
export function rankCategories(model: CategorizerModel, story: TriageText): CategorySuggestion[] {
  const { vocabulary, featureOptions, slugs, biases, byFeature } = prepare(model);
  if (slugs.length === 0) return [];
  const vector = vectorize(extractFeatures(story ?? { title: null, summary: null, sourceId: null, linkHost: null }, featureOptions), vocabulary, featureOptions);
  const scores = Float64Array.from(biases);
  for (let t = 0; t < vector.indices.length; t += 1) {
    for (const { category, weight } of byFeature.get(vector.indices[t]!) ?? []) scores[category]! += weight * vector.values[t]!;
  }
  softmaxInPlace(scores);
  return slugs.map((slug, k) => ({ slug, confidence: scores[k]! })).sort((a, b) => b.confidence - a.confidence || (a.slug < b.slug ? -1 : 1));
}

/**
 * The most likely category of a story with its probability, or null when no category has had
 * enough published stories or the model is not sure enough to preselect one.
 */
export function suggestCategory(model: CategorizerModel, story: TriageText): CategorySuggestion | null {
  const best = rankCategories(model, story)[0];
  if (!best) return null;
  const { minConfidence } = prepare(model);
  return best.confidence >= minConfidence ? { slug: best.slug, confidence: round4(best.confidence) } : null;
}
