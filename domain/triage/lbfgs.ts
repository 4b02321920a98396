// Limited-memory BFGS for the smooth convex objectives of the triage models (L2-regularised
// logistic and softmax regression). Full-batch and without randomness, so the same data always
// gives the same model, and it reaches the regularised optimum that the penalty was tuned for,
// which stochastic gradient descent only approaches.

/** Writes the gradient at x into grad and returns the objective's value there. */
export type Objective = (x: Float64Array, grad: Float64Array) => number;

export type MinimizeOptions = { maxIterations: number; memory: number; gradientTolerance: number };

const dot = (a: Float64Array, b: Float64Array): number => {
  let s = 0;
  for (let i = 0; i < a.length; i += 1) s += a[i]! * b[i]!;
  return s;
};

/** Minimises a smooth convex function from x0 (which it overwrites) and returns the point reached. */
export function minimize(objective: Objective, x0: Float64Array, options: MinimizeOptions): Float64Array {
  const n = x0.length;
  const x = x0;
  let grad = new Float64Array(n);
  let f = objective(x, grad);
  const sList: Float64Array[] = [];
  const yList: Float64Array[] = [];
  const rhoList: number[] = [];
  const direction = new Float64Array(n);
  const alphas = new Float64Array(options.memory);
  const nextX = new Float64Array(n);
  let nextGrad = new Float64Array(n);
  for (let iteration = 0; iteration < options.maxIterations; iteration += 1) {
    let gMax = 0;
    for (let i = 0; i < n; i += 1) gMax = Math.max(gMax, Math.abs(grad[i]!));
    if (gMax < options.gradientTolerance) break;

    // Two-loop recursion: direction = -H * grad.
    direction.set(grad);
    for (let k = sList.length - 1; k >= 0; k -= 1) {
      const a = rhoList[k]! * dot(sList[k]!, direction);
      alphas[k] = a;
      const y = yList[k]!;
      for (let i = 0; i < n; i += 1) direction[i]! -= a * y[i]!;
    }
    if (sList.length > 0) {
      const last = sList.length - 1;
      const gamma = dot(sList[last]!, yList[last]!) / dot(yList[last]!, yList[last]!);
      for (let i = 0; i < n; i += 1) direction[i]! *= gamma;
    } else {
      // First step: a unit-length move along the steepest descent.
      const norm = Math.sqrt(dot(grad, grad)) || 1;
      for (let i = 0; i < n; i += 1) direction[i]! /= norm;
    }
    for (let k = 0; k < sList.length; k += 1) {
      const b = rhoList[k]! * dot(yList[k]!, direction);
      const s = sList[k]!;
      const a = alphas[k]!;
      for (let i = 0; i < n; i += 1) direction[i]! += s[i]! * (a - b);
    }
    for (let i = 0; i < n; i += 1) direction[i] = -direction[i]!;

    let slope = dot(grad, direction);
    if (!(slope < 0)) {
      // Not a descent direction (numerical trouble): restart from steepest descent.
      sList.length = 0;
      yList.length = 0;
      rhoList.length = 0;
      for (let i = 0; i < n; i += 1) direction[i] = -grad[i]!;
      slope = dot(grad, direction);
    }

    // Backtracking line search with the Armijo condition.
    let step = 1;
    let nextF = Number.POSITIVE_INFINITY;
    for (let tries = 0; tries < 30; tries += 1) {
      for (let i = 0; i < n; i += 1) nextX[i] = x[i]! + step * direction[i]!;
      nextF = objective(nextX, nextGrad);
      if (nextF <= f + 1e-4 * step * slope) break;
      step *= 0.5;
    }
    if (!(nextF < f)) break;

    const s = new Float64Array(n);
    const y = new Float64Array(n);
    for (let i = 0; i < n; i += 1) {
      s[i] = nextX[i]! - x[i]!;
      y[i] = nextGrad[i]! - grad[i]!;
    }
    const sy = dot(s, y);
    if (sy > 1e-12) {
      if (sList.length === options.memory) {
        sList.shift();
        yList.shift();
        rhoList.shift();
      }
      sList.push(s);
      yList.push(y);
      rhoList.push(1 / sy);
    }
    x.set(nextX);
    const previous = grad;
    grad = nextGrad;
    nextGrad = previous;
    const improvement = (f - nextF) / Math.max(Math.abs(f), 1e-12);
    f = nextF;
    if (improvement < 1e-9) break;
  }
  return x;
}
