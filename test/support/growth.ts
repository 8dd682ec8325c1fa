// Linear time, tested without a clock deciding it: how much longer an input four times the size takes
// — about 4 when linear, 16 when quadratic. Tests hold GROWTH_BOUND (capability for a loaded machine and the collector);
// the bench holds the absolute targets.

export const GROWTH_BOUND = 12;

/** The fastest of five runs, in ms: the least disturbed by whatever else the machine is doing. */
export function fastest(run: () => void): number {
  let best = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const started = performance.now();
    run();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/** The time `read` takes on `make(size * 4)` over its time on `make(size)`, each warmed first. */
export function growth(
  read: (input: string) => unknown,
  make: (size: number) => string,
  size: number,
): number {
  const small = make(size);
  const large = make(size * 4);
  // Warmed first, so the JIT's first compilations are not what is measured.
  read(small);
  read(large);
  return fastest(() => read(large)) / fastest(() => read(small));
}
