// Sentence splitting for the extractive writer and the faithfulness check.
// Every sentence returned is a verbatim substring of normaliseText(text), so callers can prove where it came from.

/**
 * Collapses whitespace (including non-breaking and zero-width spaces), trims, and undoes the LaTeX that abstracts
 * carry verbatim so no reader sees it: escapes ("96.86\\%"), ties ("(i)~the"), "--"/"---" dashes, and the ×/≈ macros
 * HF's plain-text abstracts leave as "1.2times" or "{approx}5{times}".
 */
export function normaliseText(text: string): string {
  return text
    .replace(/[\u200B-\u200D\uFEFF]/g, '')
    .replace(/[\s\u00A0]+/g, ' ')
    .replace(/\\([%&$#_])/g, '$1')
    .replace(/(?<=[\w).,:;])~(?=[A-Za-z(])/g, ' ')
    .replace(/(?<=\w)---(?=\w)/g, '\u2014')
    .replace(/(?<=\w)--(?=\w)/g, '\u2013')
    .replace(/(?<=\d)times\b|\{times\}/g, '\u00D7')
    .replace(/\{approx\}/g, '~')
    .trim();
}

/** Lower-case, whitespace-collapsed, typographic quotes/dashes folded: for "found verbatim" comparisons. */
export function normaliseForMatch(text: string): string {
  return normaliseText(text)
    .toLowerCase()
    .replace(/[\u2018\u2019\u201B\u2032]/g, "'")
    .replace(/[\u201C\u201D\u201F\u2033]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\u2026/g, '...');
}

// Tokens ending in "." that do not end a sentence. Lower-cased, without the final dot.
const ABBREVIATIONS = new Set([
  'e.g',
  'i.e',
  'al',
  'etc',
  'vs',
  'cf',
  'approx',
  'fig',
  'figs',
  'eq',
  'eqs',
  'sec',
  'secs',
  'tab',
  'no',
  'nos',
  'vol',
  'pp',
  'dr',
  'mr',
  'mrs',
  'ms',
  'prof',
  'st',
  'jr',
  'sr',
  'inc',
  'ltd',
  'co',
  'corp',
  'resp',
  'ca',
  'viz',
  'est',
  'dept',
  'univ',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
]);

/** True when the token before a "." is an abbreviation, an initial ("T." in "T. J. Barton") or dotted ("U.S."). */
function isAbbreviation(token: string): boolean {
  const bare = token.replace(/^[("'[\u201C\u2018]+/, '').replace(/\.$/, '');
  if (ABBREVIATIONS.has(bare.toLowerCase())) return true;
  if (/^[A-Z]$/.test(bare)) return true;
  return /^(?:[A-Za-z]\.)+[A-Za-z]$/.test(bare);
}

/**
 * Splits normalised text into sentences. A boundary is ".", "!" or "?" (optionally followed by closing quotes or
 * brackets) then a space then something that can start a sentence (capital, digit, quote, bracket). Decimals
 * ("4.51") never split because no space follows the dot; abbreviations and initials do not split.
 */
export function splitSentences(text: string): string[] {
  const source = normaliseText(text);
  const sentences: string[] = [];
  const boundary =
    /[.!?]+["'\u201D\u2019)\]]*(?= (?:["'\u201C\u2018([]?[A-Z0-9\u00C0-\u024F\u0370-\u03FF]))/g;
  let start = 0;
  for (let match = boundary.exec(source); match; match = boundary.exec(source)) {
    const end = match.index + match[0].length;
    const piece = source.slice(start, end);
    if (match[0].startsWith('.') && !/[.!?]{2,}/.test(match[0])) {
      const lastToken =
        piece
          .slice(0, piece.length - match[0].length + 1)
          .split(' ')
          .pop() ?? '';
      if (isAbbreviation(lastToken)) continue;
    }
    const sentence = piece.trim();
    if (sentence) sentences.push(sentence);
    start = end + 1;
  }
  const rest = source.slice(start).trim();
  if (rest) sentences.push(rest);
  return sentences;
}

export function wordCount(text: string): number {
  const trimmed = text.trim();
  return trimmed ? trimmed.split(/\s+/).length : 0;
}

const URL_PATTERN = /\b(?:https?:\/\/|www\.)\S+|\b[a-z0-9-]+\.(?:com|org|io|ai|net|dev)\/\S*/i;

// Boilerplate that says nothing about the item itself.
const BOILERPLATE = [
  /\b(?:code|data|dataset|datasets|models?|weights|checkpoints|project page|demo|benchmark|resources?)\b[^.]{0,60}\b(?:is|are|will be|has been|have been)\b[^.]{0,30}\b(?:available|released|open-sourced|public)\b/i,
  /\bappeared first on\b/i,
  /^(?:read more|continue reading|click here|subscribe|sign up|share this|follow us)\b/i,
  /\b(?:accepted (?:at|to|by)|to appear (?:at|in))\b/i,
  /\b(?:equal contribution|corresponding author)\b/i,
  /^(?:this (?:post|article) (?:was )?(?:originally )?(?:published|posted))\b/i,
  /\b(?:all rights reserved|copyright ©|©)\b/i,
  /\[\s*(?:…|\.\.\.)\s*\]$/,
];

export const SENTENCE_MIN_WORDS = 6;
export const SENTENCE_MAX_WORDS = 60;

/** Why a sentence is unusable as a summary or takeaway sentence, or null when it is usable. */
export function rejectReason(sentence: string): string | null {
  const words = wordCount(sentence);
  if (words < SENTENCE_MIN_WORDS) return 'too short';
  if (words > SENTENCE_MAX_WORDS) return 'too long';
  if (URL_PATTERN.test(sentence)) return 'contains a URL';
  if (BOILERPLATE.some((pattern) => pattern.test(sentence))) return 'boilerplate';
  if (!/[a-z]{3}/i.test(sentence)) return 'no words';
  // HTML, LaTeX macros, inline math with a sub/superscript or a single variable ("$k$"); "$20M-$30M" is prose.
  if (/[<>]|\\[A-Za-z]+|[_^]\{|\$[^$]*[\\^_][^$]*\$|\$[A-Za-z]\$/.test(sentence)) return 'markup';
  return null;
}

/** True when every "..."-separated part of the quote occurs in the source, and the quote has ≥ 4 words. */
export function quoteFound(quote: string, source: string): boolean {
  const fold = (text: string) =>
    normaliseForMatch(text.replace(/‹/g, '<').replace(/›/g, '>'))
      .replace(/^["'\s]+|["'\s]+$/g, '')
      .trim();
  const haystack = fold(source);
  const parts = fold(quote)
    .split(/\.\.\.|…/)
    .map((part) => part.trim().replace(/[.,;:!?]+$/, ''))
    .filter(Boolean);
  if (parts.length === 0 || wordCount(parts.join(' ')) < 4) return false;
  return parts.every((part) => haystack.includes(part));
}
