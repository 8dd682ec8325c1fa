// Plain-text rules every stage shares (sources, enrichment): whitespace and invisible characters.

const INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u200b-\u200d\u2060\ufeff]/;
const OTHER_SPACE = /[\t\n\v\f\r\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/g;
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, 'g');

/** Collapses runs of whitespace and drops control and zero-width characters. */
export function collapse(text: string): string {
  return collapseSpaces(text).trim();
}

/** `collapse` without the trim: for text read in pieces (a parser's text events), joined later. */
export function collapseSpaces(text: string): string {
  const visible = INVISIBLE.test(text) ? text.replace(INVISIBLE_ALL, '') : text;
  // Two narrow passes instead of /\s+/g, which matches (and rewrites) every single space between words.
  return visible.replace(OTHER_SPACE, ' ').replace(/ {2,}/g, ' ');
}

/**
 * Orders two strings by code unit, as `sort()` does: the same order on every machine and locale, for keys, paths,
 * dates and words. (`localeCompare` also costs ~11 ms of ICU set-up on its first call in a process.)
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
