// Source text cleaned once, before either writer sees it (the extractive writer and the LLM prompt read the same
// cleaned text, and so does the faithfulness check). Feeds and abstracts carry defects of their own making:
//   - HTML entities left encoded, sometimes twice ("&amp;quot;")
//   - LaTeX that the plain-text abstract kept ("\emph{unified paradigm}", "$\times$")
//   - a name the source dropped because it was a macro ("We introduce , a benchmark…")
//   - a missing space after a sentence end ("per-task sandboxes.To support…")
//   - dash debris from em-dashes flattened to hyphens ("(LLMs)-for example, … Qwen-3.5-are widely used")
// Every rule below is a repair of the source's own words; nothing is invented. A sentence whose dropped name cannot
// be recovered from the title is left out rather than shown with a hole.

import { normaliseText, splitSentences } from './sentences.js';

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '\u2013',
  mdash: '\u2014',
  hellip: '\u2026',
  rsquo: '\u2019',
  lsquo: '\u2018',
  rdquo: '\u201D',
  ldquo: '\u201C',
  times: '\u00D7',
};

function decodeOnce(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code =
        body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? whole;
  });
}

/** Entities decoded; twice, because some feeds escape their already-escaped HTML once more. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  const once = decodeOnce(text);
  return once.includes('&') ? decodeOnce(once) : once;
}

const MATH_MACROS: Record<string, string> = {
  times: '\u00D7',
  sim: '~',
  approx: '\u2248',
  leq: '\u2264',
  le: '\u2264',
  geq: '\u2265',
  ge: '\u2265',
  pm: '\u00B1',
  to: '\u2192',
  rightarrow: '\u2192',
  cdot: '\u00B7',
  infty: '\u221E',
  alpha: '\u03B1',
  beta: '\u03B2',
  gamma: '\u03B3',
  delta: '\u03B4',
  epsilon: '\u03B5',
  lambda: '\u03BB',
  mu: '\u03BC',
  sigma: '\u03C3',
  theta: '\u03B8',
  '%': '%',
};

/** Text-style LaTeX commands whose argument is plain prose. */
const TEXT_COMMANDS =
  /\\(?:emph|textbf|textit|texttt|textsc|textrm|textsf|underline|mathrm|mathbf|mathit|mathsf|mathtt|text|method|name)\{([^{}]*)\}/g;

/** Unwraps prose-like LaTeX; math it cannot render plainly is left for the sentence filter to refuse. */
export function stripLatex(text: string): string {
  if (!text.includes('\\') && !text.includes('$')) return text;
  let out = text.replace(TEXT_COMMANDS, '$1').replace(TEXT_COMMANDS, '$1');
  out = out.replace(/\\([A-Za-z]+|%)(?![A-Za-z])\s?/g, (whole, name: string) => {
    const symbol = MATH_MACROS[name];
    return symbol === undefined ? whole : symbol;
  });
  // Inline math that is now plain ("$k$", "$×$", "$O(n)$") loses its dollars; "$20M-$30M" is money, not math.
  out = out.replace(/\$([^$\\]{1,40})\$/g, (whole, inner: string) =>
    /^\d[\d.,]*[KMB]?(?:[-\u2013\s]|$)/.test(inner)
      ? whole
      : inner.replace(/[{}]/g, '').replace(/\s+/g, ' ').trim(),
  );
  return out;
}

// An em-dash aside flattened to hyphens: "(LLMs)-for example, Gemini-3.1-Pro and Qwen-3.5-are widely used".
const ASIDE_OPENER =
  /(?<=[\w)\]])-(?=(?:for example|for instance|e\.g\.|i\.e\.|such as|including|namely|that is|especially)\b)/g;
const ASIDE_CLOSER =
  /(?<=[\w.)\]])-(?=(?:are|is|was|were|have|has|had|can|could|will|would|may|might|remain|remains|show|shows|do|does|need|needs)\b)/;

/** Dash debris: spaced double hyphens, glued asides, dashes hanging at a sentence's edge. */
export function repairDashes(text: string): string {
  let out = text.replace(/\s+-{2,3}\s+/g, ' \u2014 ').replace(/(?<=\w)\s+-\s+(?=\w)/g, ' \u2014 ');
  let match = ASIDE_OPENER.exec(out);
  while (match) {
    const at = match.index;
    const rest = out.slice(at + 1, at + 160);
    const closer = ASIDE_CLOSER.exec(rest);
    const closed = closer ? `${rest.slice(0, closer.index)} \u2014 ${rest.slice(closer.index + 1)}` : rest;
    out = `${out.slice(0, at)} \u2014 ${closed}${out.slice(at + 160)}`;
    ASIDE_OPENER.lastIndex = at + 3;
    match = ASIDE_OPENER.exec(out);
  }
  ASIDE_OPENER.lastIndex = 0;
  return out;
}

/** "sandboxes.To support" → "sandboxes. To support": a word of two or more lower-case letters, an end, a capital. */
export function repairSentenceSpacing(text: string): string {
  return text.replace(/(?<=[a-z]{2}[.!?]|[a-z]{2}[.!?]["\u201D)])(?=[A-Z][a-z])/g, ' ');
}

/**
 * The name a "Name: subtitle" title gives its work ("ClawMark: A Living-World Benchmark…" → "ClawMark"), or null.
 * Short only: a title whose first part is a sentence ("Why X fails: …") names nothing.
 */
export function titleName(title: string): string | null {
  const match = /^\s*([^:]{2,40}):\s+\S/.exec(title);
  const name = match?.[1]?.trim();
  if (!name || name.split(/\s+/).length > 4) return null;
  if (/^(?:how|why|what|when|where|who|towards?|beyond|on|from|rethinking|revisiting|a|an|the)\b/i.test(name))
    return null;
  return name;
}

// A hole where the source dropped a macro'd name: a space before a comma/period/colon, or empty brackets.
const DROPPED_NAME =
  /(?<=\b(?:introduce|introduces|present|presents|propose|proposes|release|releases|call|called|named|term|termed|dub|dubbed|build|develop|design|our|with|use|using|of|on|by|via|and|for|the))(\s+\(\s*\))?\s+(?=[,.;:]\s)|\s+\(\s*\)(?=[\s,.;:])/g;

/** Fills the holes of dropped names with the title's name; a sentence that keeps a hole is removed. */
export function repairDroppedNames(text: string, title: string): string {
  if (!/\s[,.;:]\s|\(\s*\)/.test(text)) return text;
  const name = titleName(title);
  const filled = name ? text.replace(DROPPED_NAME, ` ${name}`) : text;
  if (!/\s[,.;:]\s|\(\s*\)/.test(filled)) return filled;
  return splitSentences(filled)
    .filter((sentence) => !/\s[,;:]\s|\s\.$|\s\.\s|\(\s*\)/.test(sentence.replace(/\bet al\./g, '')))
    .join(' ');
}

/**
 * The cleaned text of an item, for every writer. Idempotent: cleaning a cleaned text changes nothing.
 * `title` lets a dropped name be recovered ("We introduce , a benchmark" with title "ClawMark: …").
 */
export function cleanSourceText(text: string, title = ''): string {
  if (!text) return text;
  // Markup a feed escaped once too often arrives as text after decoding: its tags are not words.
  const decoded = decodeEntities(text).replace(/<\/?[a-z][a-z0-9]*(?:\s[^<>]*)?\/?>/gi, ' ');
  const unlatexed = stripLatex(decoded);
  const spaced = repairSentenceSpacing(normaliseText(unlatexed));
  const dashed = repairDashes(spaced);
  return normaliseText(repairDroppedNames(dashed, title));
}
