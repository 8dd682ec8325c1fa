// Tokens for the lexical parts of selection (relevance, topic vectors, near-duplicate titles).
// Deliberately crude and deterministic: lower-case, accents folded, a light suffix stemmer, a small stop list.
// The loops here run once per build, as cold code: they index arrays and use Map#forEach rather than `for…of`,
// whose iterator results and [key, value] pairs an unoptimised function allocates at every step.

import { compareText } from '../core/text.js';

const STOPWORDS = new Set(
  (
    'a an and are as at be by can do does for from has have how in into is it its of on or our over than that the ' +
    'their them then there these they this those to under up via we what when where which while who why will with ' +
    'without you your yet not no also both each more most much such very only other some all any new using use ' +
    'based toward towards through across between via us one two three first second show shows shown paper propose ' +
    'proposed present presents introduce introduces approach method methods results result work study et al however ' +
    'existing recent recently furthermore moreover while whereas across further still often may might could would should ' +
    'achieve achieves achieving demonstrate demonstrates significantly significant novel state art sota extensive ' +
    'experiments experiment outperform outperforms outperforming even well many across within among'
  ).split(/\s+/),
);

const stems = new Map<string, string>();

/** A light stemmer: enough to make "agents" meet "agent" and "evaluating" meet "evaluation" roughly. */
export function stem(word: string): string {
  const known = stems.get(word);
  if (known !== undefined) return known;
  const result = stemUncached(word);
  // The vocabulary is bounded in practice; the cap keeps a pathological input from growing it forever.
  if (stems.size < 200_000) stems.set(word, result);
  return result;
}

function stemUncached(word: string): string {
  let w = word;
  if (w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (
    w.endsWith('s') &&
    !(w.endsWith('ss') || w.endsWith('us') || w.endsWith('is') || w.endsWith('ys'))
  ) {
    w = w.slice(0, -1);
  }
  if (w.length > 6 && w.endsWith('ation')) w = w.slice(0, -5);
  else if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 5 && w.endsWith('ed') && !w.endsWith('eed')) w = w.slice(0, -2);
  else if (w.length > 5 && w.endsWith('er')) w = w.slice(0, -2);
  if (w.length > 4 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

/** Words of a text, folded and stemmed, stop words removed. Hyphenated words give their parts. */
export function tokenize(text: string): string[] {
  // Folding accents is only needed (and only paid for) when the text has non-ASCII characters.
  const ascii = !/[^\x00-\x7f]/.test(text);
  const folded = (ascii ? text : text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '')).toLowerCase();
  const tokens: string[] = [];
  const words = folded.split(/[^a-z0-9]+/);
  for (let index = 0; index < words.length; index++) {
    const raw = words[index] as string;
    if (raw.length < 2 || STOPWORDS.has(raw)) continue;
    if (raw.charCodeAt(0) < 58 && /^\d+$/.test(raw)) continue;
    tokens.push(stem(raw));
  }
  return tokens;
}

/** Wanted bigrams indexed by their first word, so a document only builds the bigram strings it can use. */
export type BigramIndex = ReadonlyMap<string, ReadonlySet<string>>;

export function bigramIndex(bigrams: Iterable<string>): BigramIndex {
  const index = new Map<string, Set<string>>();
  for (const bigram of bigrams) {
    const [first, second] = bigram.split('_');
    if (!first || !second) continue;
    const seconds = index.get(first) ?? new Set<string>();
    seconds.add(second);
    index.set(first, seconds);
  }
  return index;
}

/**
 * Unigrams plus adjacent bigrams ("prompt injection" → "prompt_inject"), the feature space of relevance.
 * With `wanted`, only those bigrams are kept (the ones a profile can match), which saves most of the work.
 */
export function features(tokens: string[], wanted?: BigramIndex): string[] {
  const out = tokens.slice();
  for (let index = 1; index < tokens.length; index++) {
    const first = tokens[index - 1] ?? '';
    const second = tokens[index] ?? '';
    if (!wanted || wanted.get(first)?.has(second)) out.push(`${first}_${second}`);
  }
  return out;
}

/** Term counts of a token list. */
export function termCounts(terms: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (let index = 0; index < terms.length; index++) {
    const term = terms[index] as string;
    counts.set(term, (counts.get(term) ?? 0) + 1);
  }
  return counts;
}

/**
 * A readable form of each stem in `texts`: the word that produced it most often ("failur" → "failures"), so what is
 * shown to people is a word they wrote. Bigrams ("imag_gener" or "imag gener") read as their two words.
 */
export function readableTerms(terms: readonly string[], texts: Iterable<string>): Map<string, string> {
  const wanted = new Set(terms.flatMap((term) => term.split(/[_ ]/)));
  const counts = new Map<string, Map<string, number>>();
  for (const text of texts) {
    for (const raw of text.toLowerCase().split(/[^a-z0-9]+/)) {
      if (raw.length < 2 || STOPWORDS.has(raw)) continue;
      const root = stem(raw);
      if (!wanted.has(root)) continue;
      const words = counts.get(root) ?? new Map<string, number>();
      words.set(raw, (words.get(raw) ?? 0) + 1);
      counts.set(root, words);
    }
  }
  const word = (root: string) =>
    [...(counts.get(root) ?? [])].sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]))[0]?.[0] ?? root;
  return new Map(terms.map((term) => [term, term.split(/[_ ]/).map(word).join(' ')]));
}
