// How a capability's public entry (its index.ts) exports its use cases: a module is imported on the first call of
// one of its functions, so a command loads only what it runs (an offline build never loads the mail renderer; an idle
// `digest serve` neither the desk's actions nor the AI SDK). Each wrapper takes the loaded function's own types.

type Loaded<F> = F extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;

/**
 * One module's functions, each imported on its first call:
 * `export const { addEditor, listEditors } = lazyModule(() => import('./editors.js'));`
 */
export function lazyModule<M>(load: () => Promise<M>): { readonly [K in keyof M]: Loaded<M[K]> } {
  const functions = new Map<PropertyKey, unknown>();
  return new Proxy({} as { readonly [K in keyof M]: Loaded<M[K]> }, {
    get(_target, name) {
      if (!functions.has(name)) {
        functions.set(name, async (...args: unknown[]) => {
          const loaded = (await load()) as Record<PropertyKey, (...input: unknown[]) => unknown>;
          return loaded[name]!(...args);
        });
      }
      return functions.get(name);
    },
  });
}
