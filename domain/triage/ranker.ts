import { sigmoid, trainLogistic } from "./logistic";
import {
  buildVocabulary,
  DEFAULT_FEATURE_OPTIONS,
  describeFeature,
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

// The learned order of the Pending list: how likely the desk is to publish a story, from its own
// decisions (published versus rejected) on the text it saw. The default model, chosen on
// time-ordered validation folds (bench/triage-validation.ts; docs/benchmarks.md, "Editorial
// triage"), averages a class-weighted, strongly L2-regularised logistic regression and naive Bayes on
// tf-idf words of title and summary, title word pairs, source and site, its log-odds then calibrated
// into a chance.

/** One editorial decision, with the text that was seen when it was made. */
export type RankerDecision = {
  title: string;
  summary: string | null;
  sourceId: number | null;
  linkHost: string | null;
  published: boolean;
};

/**
 * "logistic": class-weighted logistic regression; "naive-bayes": multinomial naive Bayes;
 * "nb-logistic": logistic regression on features scaled by their naive Bayes log-count ratio
 * (Wang and Manning's NBSVM, with a logistic loss); "blend": the average of the logistic and the
 * naive Bayes log-odds, each standardised over the decisions (still one weight per feature).
 */
export type RankerAlgorithm = "logistic" | "naive-bayes" | "nb-logistic" | "blend";

export type RankerOptions = Partial<FeatureOptions> & {
  algorithm?: RankerAlgorithm;
  /** Inverse regularisation strength of the logistic regression (as scikit-learn's C). */
  c?: number;
  /** Additive smoothing of naive Bayes. */
  alpha?: number;
  /** How far published stories are weighted up to weigh as much as rejected ones: 1 fully ("balanced"), 0 not at all, 0.5 by the square root. */
  balance?: number;
  /** In "blend", the naive Bayes share of the average (0..1). */
  blendShare?: number;
  /**
   * Turns the log-odds into the chance that the desk publishes a story, learned from scores of
   * decisions left out of training (Platt scaling): the class weights and the penalty that make the
   * order best also push every score towards the middle. The order of stories stays as it was.
   */
  calibrate?: boolean;
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

/** The settings the triage job trains with (chosen on validation folds in bench:triage). */
export const RANKER_DEFAULTS: Readonly<Required<RankerOptions>> = {
  ...DEFAULT_FEATURE_OPTIONS,
  // The logistic regression's and naive Bayes' log-odds averaged, C = 0.1, naive Bayes smoothed by 0.1,
  // features seen once: the best of the validation grid on 9,420 decisions (bench/triage-validation.ts).
  algorithm: "blend",
  c: 0.1,
  alpha: 0.1,
  balance: 1,
  blendShare: 0.5,
  calibrate: true,
  minDf: 1,
  maxFeatures: 40_000,
  maxIterations: 200,
};

/**
 * Trains the ranking model on the desk's decisions; deterministic. With decisions of one kind only
 * (check canTrainRanker first) it still answers: a model that gives every story the same score.
 */
export function trainRanker(decisions: readonly RankerDecision[], options: RankerOptions = {}): RankerModel {
  const settings = { ...RANKER_DEFAULTS, ...options };
  const featureOptions = featureOptionsFromJson(settings);
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
  const fitted = fitLinear(settings, featureOptions, counts, labels);
  const { slope, intercept } = settings.calibrate ? calibration(settings, featureOptions, counts, labels) : { slope: 1, intercept: 0 };
  const weights = Array.from(fitted.weights, (w) => round4(slope * w));
  return { ...base, vocabulary: vocabularyToJson(fitted.vocabulary), weights, bias: round4(slope * fitted.bias + intercept) };
}

/** The vocabulary of some decisions' features and the linear model learned on it. */
function fitLinear(settings: Required<RankerOptions>, featureOptions: FeatureOptions, counts: Map<string, number>[], labels: boolean[]) {
  const vocabulary = buildVocabulary(counts, { minDf: settings.minDf, maxFeatures: settings.maxFeatures });
  const vectors = counts.map((c) => vectorize(c, vocabulary, featureOptions));
  return { vocabulary, ...trainLinear(settings, vectors, labels, vocabulary.features.length) };
}

/** Decisions are left out in turn, one in three, to learn how the model's log-odds translate into chances. */
const CALIBRATION_FOLDS = 3;

/**
 * Platt scaling: the slope and intercept that turn a model's log-odds into the chance of being
 * published, fitted on each decision's score by a model trained without it, vocabulary included (a
 * new story's unknown words count for nothing, and so must a left-out decision's). Without class
 * weights: the chance is the desk's real one. The identity when there is too little to learn it from.
 */
function calibration(settings: Required<RankerOptions>, featureOptions: FeatureOptions, counts: Map<string, number>[], labels: boolean[]): { slope: number; intercept: number } {
  const identity = { slope: 1, intercept: 0 };
  const scores: number[] = [];
  const outcomes: boolean[] = [];
  for (let fold = 0; fold < CALIBRATION_FOLDS; fold += 1) {
    const trainOn = (i: number) => i % CALIBRATION_FOLDS !== fold;
    const trainLabels = labels.filter((_, i) => trainOn(i));
    if (!trainLabels.includes(true) || !trainLabels.includes(false)) return identity;
    const model = fitLinear(settings, featureOptions, counts.filter((_, i) => trainOn(i)), trainLabels);
    counts.forEach((c, i) => {
      if (trainOn(i)) return;
      const { indices, values } = vectorize(c, model.vocabulary, featureOptions);
      let z = model.bias;
      for (let k = 0; k < indices.length; k += 1) z += model.weights[indices[k]!]! * values[k]!;
      scores.push(z);
      outcomes.push(labels[i]!);
    });
  }
  const fitted = fitPlatt(scores, outcomes);
  // A slope that is not positive would turn the order around: the model learned nothing to calibrate.
  return fitted.slope > 0 ? fitted : identity;
}

/** Platt's (2000) fit of sigmoid(slope * score + intercept) to outcomes, with his smoothed targets: Newton's method with backtracking. */
export function fitPlatt(scores: readonly number[], outcomes: readonly boolean[]): { slope: number; intercept: number } {
  const positives = outcomes.filter(Boolean).length;
  const high = (positives + 1) / (positives + 2);
  const low = 1 / (outcomes.length - positives + 2);
  const target = outcomes.map((o) => (o ? high : low));
  const loss = (a: number, b: number) => {
    let sum = 0;
    for (let i = 0; i < scores.length; i += 1) {
      const z = a * scores[i]! + b;
      // -t log(p) - (1 - t) log(1 - p), computed without overflow.
      sum += (z > 0 ? Math.log1p(Math.exp(-z)) : -z + Math.log1p(Math.exp(z))) + (1 - target[i]!) * z;
    }
    return sum;
  };
  let slope = 1;
  let intercept = 0;
  let current = loss(slope, intercept);
  for (let iteration = 0; iteration < 100; iteration += 1) {
    let gA = 0;
    let gB = 0;
    // A small ridge keeps the Newton step defined when every score is the same.
    let hAA = 1e-12;
    let hAB = 0;
    let hBB = 1e-12;
    for (let i = 0; i < scores.length; i += 1) {
      const p = sigmoid(slope * scores[i]! + intercept);
      const d = p - target[i]!;
      const w = p * (1 - p);
      gA += d * scores[i]!;
      gB += d;
      hAA += w * scores[i]! * scores[i]!;
      hAB += w * scores[i]!;
      hBB += w;
    }
    const det = hAA * hBB - hAB * hAB;
    if (!(det > 0)) break;
    const stepA = (hBB * gA - hAB * gB) / det;
    const stepB = (hAA * gB - hAB * gA) / det;
    let t = 1;
    let next = loss(slope - stepA, intercept - stepB);
    while (!(next < current) && t > 1e-10) {
      t /= 2;
      next = loss(slope - t * stepA, intercept - t * stepB);
    }
    if (!(next < current)) break;
    slope -= t * stepA;
    intercept -= t * stepB;
    const improvement = current - next;
    current = next;
    if (improvement < 1e-10 * Math.max(1, Math.abs(current))) break;
  }
  return { slope, intercept };
}

function trainLinear(settings: Required<RankerOptions>, vectors: SparseVector[], labels: boolean[], dimension: number): { weights: Float64Array; bias: number } {
  const logistic = (scaled: SparseVector[]) => trainLogistic(scaled, labels, dimension, { c: settings.c, maxIterations: settings.maxIterations, balance: settings.balance });
  switch (settings.algorithm) {
    case "naive-bayes":
      return trainNaiveBayes(vectors, labels, dimension, settings.alpha);
    case "nb-logistic": {
      // Each feature scaled by how much more often it comes with one kind of decision than the other;
      // the stored weights fold the scale back in, so a story is scored as by any linear model.
      const ratios = trainNaiveBayes(vectors, labels, dimension, settings.alpha).weights;
      const fitted = logistic(vectors.map(({ indices, values }) => ({ indices, values: values.map((v, k) => v * ratios[indices[k]!]!) })));
      return { weights: fitted.weights.map((w, j) => w * ratios[j]!), bias: fitted.bias };
    }
    case "blend": {
      const lr = logistic(vectors);
      const nb = trainNaiveBayes(vectors, labels, dimension, settings.alpha);
      // Both log-odds standardised over the decisions, averaged, and told on the logistic's scale.
      const lrSpread = spread(vectors, lr);
      const nbSpread = spread(vectors, nb);
      const share = Math.min(1, Math.max(0, settings.blendShare));
      const k = nbSpread.sd > 0 ? lrSpread.sd / nbSpread.sd : 0;
      return {
        weights: lr.weights.map((w, j) => (1 - share) * w + share * k * nb.weights[j]!),
        bias: (1 - share) * lr.bias + share * (lrSpread.mean + k * (nb.bias - nbSpread.mean)),
      };
    }
    default:
      return logistic(vectors);
  }
}

/** The mean and standard deviation of a linear model's log-odds over some stories. */
function spread(vectors: SparseVector[], model: { weights: Float64Array; bias: number }): { mean: number; sd: number } {
  let sum = 0;
  let squares = 0;
  for (const { indices, values } of vectors) {
    let z = model.bias;
    for (let k = 0; k < indices.length; k += 1) z += model.weights[indices[k]!]! * values[k]!;
    sum += z;
    squares += z * z;
  }
  const mean = sum / Math.max(1, vectors.length);
  return { mean, sd: Math.sqrt(Math.max(0, squares / Math.max(1, vectors.length) - mean * mean)) };
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
  const featureOptions = featureOptionsFromJson(model?.featureOptions);
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
  const vector = vectorize(extractFeatures(story ?? { title: null, summary: null, sourceId: null, linkHost: null }, featureOptions), vocabulary, featureOptions);
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
