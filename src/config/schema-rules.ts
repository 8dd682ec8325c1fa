// Field rules several config sections share, each written once.
import { type RefinementCtx, z } from 'zod';
import { isHttpUrl } from '../core/urls.js';

/** An absolute http(s) URL. */
export const httpUrl = z.string().url().refine(isHttpUrl, 'must be an http(s) URL');

/** A `superRefine` for a list whose entries have ids: a repeated id is an error at that entry's `id`. */
export function uniqueIds(what: string) {
  return (entries: readonly { id: string }[], context: RefinementCtx): void => {
    const seen = new Set<string>();
    entries.forEach((entry, index) => {
      if (seen.has(entry.id)) {
        context.addIssue({
          code: 'custom',
          path: [index, 'id'],
          message: `duplicate ${what} id "${entry.id}"`,
        });
      }
      seen.add(entry.id);
    });
  };
}
