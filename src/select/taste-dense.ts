// Learned taste over embeddings: the same class-balanced logistic regression as tf-idf (_logistic.ts), on dense
// vectors. Embeddings of one model share a common direction (any two texts look alike), so the training vectors'
// mean is taken out and each vector scaled back to unit length before fitting; items are scored the same way.
import { arrayWeights, fitLogistic, type LinearSpace, sigmoid } from './_logistic.js';

export interface DenseTasteModel {
  /** The training vectors' mean, taken out of every vector before scoring. */
  mean: Float64Array;
  weights: Float64Array;
  bias: number;
  positives: number;
  negatives: number;
}

function denseSpace(dimensions: number): LinearSpace<Float32Array, Float64Array> {
  return {
    ...arrayWeights(dimensions),
    dot(weights, vector) {
      let sum = 0;
      for (let index = 0; index < dimensions; index++) sum += weights[index]! * vector[index]!;
      return sum;
    },
    addScaled(into, vector, scale) {
      for (let index = 0; index < dimensions; index++) into[index]! += scale * vector[index]!;
    },
  };
}

/** `vector − mean`, at unit length (float32 is plenty, and half the memory of a long history). */
function centred(vector: Float32Array, mean: Float64Array): Float32Array {
  const out = new Float32Array(vector.length);
  let norm = 0;
  for (let index = 0; index < vector.length; index++) {
    const value = vector[index]! - mean[index]!;
    out[index] = value;
    norm += value * value;
  }
  const length = Math.sqrt(norm) || 1;
  for (let index = 0; index < out.length; index++) out[index]! /= length;
  return out;
}

/** The fitted model, or null without both picks and items passed over. Vectors: unit length, one dimension. */
export function fitDenseTaste(
  vectors: readonly Float32Array[],
  labels: readonly boolean[],
): DenseTasteModel | null {
  const positives = labels.filter(Boolean).length;
  const negatives = labels.length - positives;
  const dimensions = vectors[0]?.length ?? 0;
  if (positives === 0 || negatives === 0 || dimensions === 0) return null;
  const mean = new Float64Array(dimensions);
  for (const vector of vectors) {
    for (let index = 0; index < dimensions; index++) mean[index]! += vector[index]! / vectors.length;
  }
  const { weights, bias } = fitLogistic(
    denseSpace(dimensions),
    vectors.map((vector) => centred(vector, mean)),
    labels,
  );
  return { mean, weights, bias, positives, negatives };
}

/** The probability that the editor would pick each item, by its embedding. */
export function denseTasteScores(model: DenseTasteModel, vectors: readonly Float32Array[]): number[] {
  const space = denseSpace(model.weights.length);
  return vectors.map((vector) => sigmoid(model.bias + space.dot(model.weights, centred(vector, model.mean))));
}
