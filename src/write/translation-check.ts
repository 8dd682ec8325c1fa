// What a translation must keep verbatim, and the check that it did: numbers, code, quoted text and the names of
// methods and models (words with two capitals or a capital and a digit: "GPT-4o", "LoRA", "FlashRT", "RL"). Taken
// from the source text, each must appear unchanged in the translation; a field that loses one keeps its original.

// A number on its own (the 4 of "GPT-4o" is kept with the name).
const NUMBER = /(?<![A-Za-z0-9_-])\d+(?:[.,]\d+)*%?/g;
const QUOTED = /"([^"\n]{2,200})"|“([^”\n]{2,200})”/g;
const BACKTICKED = /`([^`\n]{1,100})`/g;
const WORD = /[A-Za-z][A-Za-z0-9]*(?:[-_./][A-Za-z0-9]+)*/g;

function isName(word: string): boolean {
  const capitals = word.match(/[A-Z]/g)?.length ?? 0;
  const digits = /\d/.test(word);
  // snake_case and camelCase identifiers are code; two capitals (LoRA, GPT) or a capital with a digit (Llama3) a name.
  return word.includes('_') || /[a-z][A-Z]/.test(word) || capitals >= 2 || (capitals >= 1 && digits);
}

/** The spans of `source` a translation must keep, each once, longest first. */
export function protectedSpans(source: string): string[] {
  const spans = new Set<string>();
  for (const match of source.matchAll(QUOTED)) spans.add((match[1] ?? match[2] ?? '').trim());
  for (const match of source.matchAll(BACKTICKED)) spans.add(match[1]!.trim());
  for (const match of source.matchAll(WORD)) if (isName(match[0])) spans.add(match[0]);
  for (const match of source.matchAll(NUMBER)) spans.add(match[0]);
  spans.delete('');
  return [...spans].sort((a, b) => b.length - a.length);
}

/** The protected spans of `source` that `translation` does not contain. */
export function missingSpans(source: string, translation: string): string[] {
  return protectedSpans(source).filter((span) => !translation.includes(span));
}
