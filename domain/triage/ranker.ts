import { minimize } from "./lbfgs";
import {
  buildVocabulary,
  DEFAULT_FEATURE_OPTIONS,
  describeFeature,
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

// The learned order of the Pending list: how likely the desk is to publish a story, from its own
// decisions (published versus rejected) on the text it saw. The default model, chosen by
// measurement (docs/benchmarks.md, "Editorial triage"), is a class-weighted, L2-regularised
// logistic regression on tf-idf words of title and summary, title word pairs, source and site.

/** One editorial decision, with the text that was seen when it was made. */
export type RankerDecision = {
  title: string;
  summary: string | null;
  sourceId: number | null;
  linkHost: string | null;
  published: boolean;
};

export type RankerAlgorithm = "logistic" | "naive-bayes";

export type RankerOptions = {
  algorithm?: RankerAlgorithm;
  /** Title word pairs as features besides single words. */
  titlePairs?: boolean;
  /** English plurals folded into their singular. */
  stemming?: boolean;
  /** Inverse regularisation strength of the logistic regression (as scikit-learn's C). */
  c?: number;
  /** Additive smoothing of naive Bayes. */
  alpha?: number;
  /** A feature must occur in this many decisions to be learned. */
  minDf?: number;
  /** At most this many features are kept (the most frequent), which bounds the stored model. */
  maxFeatures?: number;
  maxIterations?: number;
};

/** The stored ranking model (jsonb in triage_models, kind 'ranking'). */
export type RankerModel = {
  version: 1;
  kind: "ranking";
  algorithm: RankerAlgorithm;
  trainedOn: { published: number; rejected: number };
  featureOptions: FeatureOptions;
  vocabulary: VocabularyJson;
  /** One weight per vocabulary feature: what its tf-idf value adds to the log-odds of publishing. */
  weights: number[];
  bias: number;
};

/** A feature that moved a story's score, told in words: positive raised it, negative lowered it. */
export type ScoreReason = { feature: string; weight: number };

export type StoryScore = { score: number; reasons: ScoreReason[] };

/** How many decisions of each kind the desk needs before the learned order is worth more than newest first. */
export const MIN_DECISIONS = { published: 50, rejected: 50 } as const;

/** Whether there are enough decisions of both kinds to train the ranking model. */
export function canTrainRanker(counts: { published: number; rejected: number }): boolean {
  return counts.published >= MIN_DECISIONS.published && counts.rejected >= MIN_DECISIONS.rejected;
}

const DEFAULTS: Required<RankerOptions> = {
  algorithm: "logistic",
  titlePairs: true,
  stemming: true,
  c: 10,
  alpha: 0.1,
  minDf: 2,
  maxFeatures: 40_000,
  maxIterations: 200,
};

const sigmoid = (z: number): number => (z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z)));

/**
 * Trains the ranking model on the desk's decisions; deterministic. With decisions of one kind only
 * (check canTrainRanker first) it still answers: a model that gives every story the same score.
 */
export function trainRanker(decisions: readonly RankerDecision[], options: RankerOptions = {}): RankerModel {
  const settings = { ...DEFAULTS, ...options };
  const featureOptions: FeatureOptions = { titlePairs: settings.titlePairs, stemming: settings.stemming };
  const valid = decisions.filter((d) => d !== null && typeof d === "object");
  const labels = valid.map((d) => d.published === true);
  const published = labels.filter(Boolean).length;
  const rejected = labels.length - published;
  const base = { version: 1 as const, kind: "ranking" as const, algorithm: settings.algorithm, trainedOn: { published, rejected }, featureOptions };
  if (published === 0 || rejected === 0) {
    // Nothing to tell apart: every story gets the desk's (smoothed) publish rate.
    return { ...base, vocabulary: { features: [], idf: [] }, weights: [], bias: round4(Math.log((published + 1) / (rejected + 1))) };
  }
  const counts = valid.map((d) => extractFeatures(d, featureOptions));
  const vocabulary = buildVocabulary(counts, { minDf: settings.minDf, maxFeatures: settings.maxFeatures });
  const vectors = counts.map((c) => vectorize(c, vocabulary));
  const { weights, bias } =
    settings.algorithm === "naive-bayes"
      ? trainNaiveBayes(vectors, labels, vocabulary.features.length, settings.alpha)
      : trainLogistic(vectors, labels, vocabulary.features.length, settings.c, settings.maxIterations);
  return { ...base, vocabulary: vocabularyToJson(vocabulary), weights: Array.from(weights, round4), bias: round4(bias) };
}

/** Class-weighted ("balanced") logistic regression with an L2 penalty, fitted by L-BFGS. */
function trainLogistic(vectors: SparseVector[], labels: boolean[], dimension: number, c: number, maxIterations: number) {
  const n = vectors.length;
  const positives = labels.filter(Boolean).length;
  // Each class weighs as much in total as the other: one weird story in a hundred still counts.
  const weightOf = (label: boolean) => (label ? n / (2 * positives) : n / (2 * (n - positives)));
  const sampleWeights = Float64Array.from(labels, weightOf);
  // scikit-learn's objective, C * sum(weighted loss) + |w|^2 / 2, divided by C * n to keep it near 1.
  const lambda = 1 / (c * n);
  const objective = (params: Float64Array, grad: Float64Array): number => {
    grad.fill(0);
    const bias = params[dimension]!;
    let loss = 0;
    for (let i = 0; i < n; i += 1) {
      const { indices, values } = vectors[i]!;
      let z = bias;
      for (let k = 0; k < indices.length; k += 1) z += params[indices[k]!]! * values[k]!;
      const y = labels[i] ? 1 : 0;
      // log(1 + e^-z) for y = 1, log(1 + e^z) for y = 0, computed without overflow.
      const margin = y === 1 ? z : -z;
      loss += sampleWeights[i]! * (margin > 0 ? Math.log1p(Math.exp(-margin)) : -margin + Math.log1p(Math.exp(margin)));
      const g = (sampleWeights[i]! * (sigmoid(z) - y)) / n;
      for (let k = 0; k < indices.length; k += 1) grad[indices[k]!]! += g * values[k]!;
      grad[dimension]! += g;
    }
    let penalty = 0;
    for (let j = 0; j < dimension; j += 1) {
      penalty += params[j]! * params[j]!;
      grad[j]! += lambda * params[j]!;
    }
    return loss / n + (lambda / 2) * penalty;
  };
  const params = minimize(objective, new Float64Array(dimension + 1), { maxIterations, memory: 7, gradientTolerance: 1e-6 });
  return { weights: params.subarray(0, dimension), bias: params[dimension]! };
}

/**
 * Multinomial naive Bayes on the tf-idf values with equal class priors, as a linear model: each
 * feature's weight is the log-ratio of its smoothed share in published and in rejected stories.
 */
function trainNaiveBayes(vectors: SparseVector[], labels: boolean[], dimension: number, alpha: number) {
  const mass = [new Float64Array(dimension), new Float64Array(dimension)];
  const total = [0, 0];
  vectors.forEach(({ indices, values }, i) => {
    const cls = labels[i] ? 1 : 0;
    for (let k = 0; k < indices.length; k += 1) {
      mass[cls]![indices[k]!]! += values[k]!;
      total[cls]! += values[k]!;
    }
  });
  const weights = new Float64Array(dimension);
  const denominators = [total[0]! + alpha * dimension, total[1]! + alpha * dimension];
  for (let j = 0; j < dimension; j += 1) {
    weights[j] = Math.log((mass[1]![j]! + alpha) / denominators[1]!) - Math.log((mass[0]![j]! + alpha) / denominators[0]!);
  }
  return { weights, bias: 0 };
}

type PreparedRanker = { vocabulary: Vocabulary; weights: Float64Array; bias: number; featureOptions: FeatureOptions };

// Scoring a thousand stories should not rebuild the vocabulary's index a thousand times.
const prepared = new WeakMap<object, PreparedRanker>();

function prepare(model: RankerModel): PreparedRanker {
  const cached = prepared.get(model);
  if (cached) return cached;
  const vocabulary = vocabularyFromJson(model?.vocabulary ?? { features: [], idf: [] });
  const raw = Array.isArray(model?.weights) ? model.weights : [];
  const weights = Float64Array.from(vocabulary.features, (_, i) => (Number.isFinite(raw[i]) ? raw[i]! : 0));
  const bias = Number.isFinite(model?.bias) ? model.bias : 0;
  const featureOptions = { ...DEFAULT_FEATURE_OPTIONS, ...(model?.featureOptions ?? {}) };
  const result = { vocabulary, weights, bias, featureOptions };
  if (model !== null && typeof model === "object") prepared.set(model, result);
  return result;
}

/**
 * How likely the desk is to publish a story (0..1), with the features that raised or lowered that
 * most, strongest first, in words an editor reads ("word: goat", "site: example.com").
 */
export function scoreStory(model: RankerModel, story: TriageText, options: { reasons?: number } = {}): StoryScore {
  const { vocabulary, weights, bias, featureOptions } = prepare(model);
  const vector = vectorize(extractFeatures(story ?? { title: null, summary: null, sourceId: null, linkHost: null }, featureOptions), vocabulary);
  let z = bias;
  const contributions: ScoreReason[] = [];
  for (let k = 0; k < vector.indices.length; k += 1) {
    const j = vector.indices[k]!;
    const contribution = weights[j]! * vector.values[k]!;
    z += contribution;
    if (contribution !== 0) contributions.push({ feature: vocabulary.features[j]!, weight: contribution });
  }
  const limit = options.reasons ?? 8;
  const reasons = contributions
    .sort((a, b) => Math.abs(b.weight) - Math.abs(a.weight) || (a.feature < b.feature ? -1 : 1))
    .slice(0, limit)
    .map((r) => ({ feature: describeFeature(r.feature), weight: round4(r.weight) }));
  return { score: sigmoid(z), reasons };
}
