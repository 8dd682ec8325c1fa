// Deeply nested markup made shallow, in one linear pass, before a DOM is built: linkedom's parse grows with the
// square of the nesting depth (80,000 nested tags took 20 s), and no page worth reading nests past a few dozen
// levels. Tags deeper than the limit are dropped, their text kept; a page cut so is never given to Readability.
import { ATTRIBUTES } from './_html-text.js';

const TAG = new RegExp(`<(\\/?)([a-zA-Z][a-zA-Z0-9:-]*)${ATTRIBUTES}(?:>|$)`, 'g');
const VOID = new Set('area base br col embed hr img input link meta param source track wbr'.split(' '));

/** `markup` with no element nested deeper than `maxDepth`, and whether anything was dropped. */
export function flattenDepth(markup: string, maxDepth: number): { markup: string; flattened: boolean } {
  let depth = 0;
  let last = 0;
  let out = '';
  let flattened = false;
  for (const match of markup.matchAll(TAG)) {
    const [whole, closing, name = ''] = match;
    const lower = name.toLowerCase();
    let keep: boolean;
    if (closing) {
      keep = depth <= maxDepth;
      depth = Math.max(0, depth - 1);
    } else if (VOID.has(lower) || whole.endsWith('/>')) {
      keep = depth < maxDepth;
    } else {
      depth += 1;
      keep = depth <= maxDepth;
    }
    if (keep) continue;
    flattened = true;
    out += markup.slice(last, match.index);
    last = match.index + whole.length;
  }
  return flattened ? { markup: out + markup.slice(last), flattened } : { markup, flattened };
}
