import { minimize } from "./lbfgs";
import {
  buildVocabulary,
  DEFAULT_FEATURE_OPTIONS,
  extractFeatures,
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
// a multinomial (softmax) logistic regression on the same tf-idf features as the ranking.

/** A published story and the category it was published in. */
export type CategorizedStory = {
  title: string;
  summary: string | null;
  sourceId: number | null;
  linkHost: string | null;
  categorySlug: string;
};

export type CategorizerOptions = {
  titlePairs?: boolean;
  /** Inverse regularisation strength (as scikit-learn's C). */
  c?: number;
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

const DEFAULTS: Required<CategorizerOptions> = {
  titlePairs: false,
  c: 10,
  minDf: 2,
  maxFeatures: 20_000,
  maxWeightsPerCategory: 2_500,
  // Measured on the HuffPost sample: accuracy stops improving well before 50 iterations (it even
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
  const settings = { ...DEFAULTS, ...options };
  const featureOptions: FeatureOptions = { ...DEFAULT_FEATURE_OPTIONS, titlePairs: settings.titlePairs };
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
  const vectors = counts.map((c) => vectorize(c, vocabulary));
  const labels = Int32Array.from(training, (s) => classOf.get(s.categorySlug)!);
  const params = trainSoftmax(vectors, labels, slugs.length, vocabulary.features.length, settings.c, settings.maxIterations);
  const d = vocabulary.features.length;
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
    featureOptions: { ...DEFAULT_FEATURE_OPTIONS, ...(model?.featureOptions ?? {}) },
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
  const vector = vectorize(extractFeatures(story ?? { title: null, summary: null, sourceId: null, linkHost: null }, featureOptions), vocabulary);
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
