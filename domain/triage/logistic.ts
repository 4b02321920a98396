import { minimize } from "./lbfgs";
import type { SparseVector } from "./text-features";

// The binary logistic regression of the triage models: the ranking (published or not) and the
// category model's one-vs-rest variant (this category or another).

export const sigmoid = (z: number): number => (z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z)));

/**
 * Binary logistic regression with an L2 penalty (scikit-learn's C), fitted by L-BFGS; `balance`
 * weighs the rarer class up: 1 fully ("balanced"), 0 not at all.
 */
export function trainLogistic(
  vectors: readonly SparseVector[],
  labels: readonly boolean[],
  dimension: number,
  { c, maxIterations, balance }: { c: number; maxIterations: number; balance: number },
): { weights: Float64Array; bias: number } {
  const n = vectors.length;
  const positives = labels.filter(Boolean).length;
  // Balanced, each class weighs as much in total as the other: one weird story in a hundred still counts.
  const weightOf = (label: boolean) => (label ? n / (2 * positives) : n / (2 * (n - positives))) ** balance;
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
