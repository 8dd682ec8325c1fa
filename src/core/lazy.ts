// How a capability's public entry (its index.ts) exports a use case: the module is imported on the first call, so a command loads
// only what it runs (an offline build never loads the email renderer; an idle `digest serve` neither the desk's actions nor the
// AI SDK). The wrapper takes the loaded function's own parameter types.

/** A function whose module is imported on its first call (then cached by the module system). */
export function lazy<A extends unknown[], R>(
  load: () => Promise<(...args: A) => R | PromiseLike<R>>,
): (...args: A) => Promise<R> {
  return async (...args) => (await load())(...args);
}
