// The one fitting routine of learned taste: a class-balanced, L2-regularised logistic regression by full-batch
// gradient descent. The feature space is passed in, so tf-idf's sparse term maps (taste.ts) and embeddings' dense
// vectors (taste-dense.ts) share the loop and its settings instead of each keeping a copy.

/** What the loop needs from a feature space: weights of its shape and the three operations on them. */
export interface LinearSpace<Vector, Weights> {
  /** All-zero weights (also the gradient's accumulator). */
  zeros(): Weights;
  dot(weights: Weights, vector: Vector): number;
  /** `into += scale · vector` */
  addScaled(into: Weights, vector: Vector, scale: number): void;
  /** `weights ← weights − rate · gradient − decay · weights` */
  step(weights: Weights, gradient: Weights, by: { rate: number; decay: number }): void;
}

/** Weights held in a Float64Array of a fixed size: the zeros and the step every such space shares. */
export function arrayWeights(size: number): Pick<LinearSpace<unknown, Float64Array>, 'zeros' | 'step'> {
  return {
    zeros: () => new Float64Array(size),
    step(weights, gradient, { rate, decay }) {
      for (let index = 0; index < size; index++) {
        weights[index] = weights[index]! - rate * gradient[index]! - decay * weights[index]!;
      }
    },
  };
}

export interface LogisticFit<Weights> {
  weights: Weights;
  bias: number;
}

const ITERATIONS = 200;
const LEARNING_RATE = 1;
const L2 = 0.01;

export const sigmoid = (value: number) => 1 / (1 + Math.exp(-value));

/** Fits `labels` (true = picked) from `vectors`; both classes must be present. */
export function fitLogistic<Vector, Weights>(
  space: LinearSpace<Vector, Weights>,
  vectors: readonly Vector[],
  labels: readonly boolean[],
): LogisticFit<Weights> {
  const positives = labels.filter(Boolean).length;
  const negatives = labels.length - positives;
  // Class-balanced: the few picks weigh as much in total as the many passed over.
  const classWeight = [labels.length / (2 * negatives), labels.length / (2 * positives)];
  const weights = space.zeros();
  let bias = 0;
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    const gradient = space.zeros();
    let biasGradient = 0;
    vectors.forEach((vector, index) => {
      const label = labels[index] ? 1 : 0;
      const error = (sigmoid(bias + space.dot(weights, vector)) - label) * (classWeight[label] ?? 1);
      biasGradient += error;
      space.addScaled(gradient, vector, error);
    });
    const scale = LEARNING_RATE / vectors.length;
    space.step(weights, gradient, { rate: scale, decay: LEARNING_RATE * L2 });
    bias -= scale * biasGradient;
  }
  return { weights, bias };
}
