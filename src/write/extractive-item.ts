// One item, written only from its own sentences. Deterministic: same input, same output.
//
// Each usable sentence (see rejectReason) gets a score:
//   position   +1.0 first sentence (usually the problem), +0.5 second, +0.5 last (usually the conclusion)
//   cue        +2.0 "we propose / introduce / present / show / find …", "this paper/work/post …", "our …"
//   result     +1.5 a number with a unit or comparison (%, x, points, ×, "up to", "over"), +1.0 a result verb
//              (outperform, improve, achieve, reduce, surpass, state-of-the-art, faster)
//   title      +2.0 × share of the title's content words the sentence contains
//   length     −0.5 under 10 words, −1.0 over 45 words
//   context    −1.5 opens with a connective that needs the sentence before it ("However,", "Yet", "To this end"),
//              −0.5 opens with an anaphor ("This", "These", "It", "They", "Such")
// Summary: highest-scoring sentences (ties: earlier first) while the total stays ≤ 100 words, shown in source order;
// with 4+ usable sentences, 3 are always left over for the takeaways, self-contained ones when the text has them.
// A sentence that refers back ("These results …") joins the summary only with the sentence before it; a leading
// link phrase ("However,", "To address this issue,") is trimmed when that sentence is not shown (extractive-context.ts).
// Takeaways: the 3 best remaining sentences, self-contained ones first, in source order; when fewer than 3 remain,
// summary sentences are reused;
// when the text has fewer than 3 usable sentences in all, labelled facts fill in ("Authors: …", "Source: …",
// "Published: …", "Title: …", "Details: …") — never an invented claim.

import type { WrittenItem } from '../core/types.js';
import { standaloneForm } from './extractive-context.js';
import { judgeLevel } from './level.js';
import { normaliseForMatch, rejectReason, splitSentences, wordCount } from './sentences.js';
import type { ItemForWriting } from './types.js';

export const SUMMARY_MAX_WORDS = 100;

const CUE =
  /\b(?:we|this (?:paper|work|study|post|article|report)|our (?:method|approach|framework|model|results?|work|analysis))\s+(?:\w+\s+)?(?:propose|introduce|present|develop|release|show|find|demonstrate|build|design|study|reveal|identify|argue|describe)s?\b/i;
const RESULT_NUMBER =
  /\d(?:[\d.,]*)\s*(?:%|x\b|×|-?points?\b|-?fold\b)|\bup to \d|\b\d+(?:\.\d+)?\s*(?:times|percent)\b/i;
const RESULT_VERB =
  /\b(?:outperform\w*|improv\w*|achiev\w*|reduc\w*|surpass\w*|state-of-the-art|sota|faster|speedups?|gains?)\b/i;
const STOPWORDS = new Set(
  'a an and are as at by for from in into is it its of on or over the their this to towards via vs with without when why how what your you we our can do not'.split(
    ' ',
  ),
);

// Out of context these read as fragments of an argument the reader never saw.
const CONNECTIVE_OPENER =
  /^(?:however|yet|but|moreover|furthermore|in addition|additionally|besides|thus|therefore|hence|consequently|nevertheless|nonetheless|meanwhile|instead|still|also|then|finally|first(?:ly)?|second(?:ly)?|third(?:ly)?|to (?:address|tackle|solve|overcome|fill|bridge) (?:this|these|that|those|the)\b[^,]*|to this end|despite (?:this|these)|in (?:this|that) (?:case|setting|way)|as a result|on the other hand|in contrast|by contrast|specifically|concretely|notably|importantly)\b[,\s]/i;
const ANAPHOR_OPENER = /^(?:this|these|those|it|they|such|that)\s/i;

export interface ScoredSentence {
  index: number;
  text: string;
  words: number;
  score: number;
  /** The text to show without the sentence before it (a leading link phrase trimmed), or null when it needs it. */
  standalone: string | null;
}

function contentWords(text: string): Set<string> {
  return new Set(
    normaliseForMatch(text)
      .split(/[^a-z0-9-]+/)
      .filter((word) => word.length > 2 && !STOPWORDS.has(word)),
  );
}

export function scoreSentences(title: string, text: string): ScoredSentence[] {
  const sentences = splitSentences(text);
  const titleWords = contentWords(title);
  const last = sentences.length - 1;
  const scored: ScoredSentence[] = [];
  sentences.forEach((sentence, index) => {
    if (rejectReason(sentence)) return;
    const words = wordCount(sentence);
    let score = index === 0 ? 1 : index === 1 ? 0.5 : 0;
    if (index === last && index > 1) score += 0.5;
    if (CUE.test(sentence)) score += 2;
    if (RESULT_NUMBER.test(sentence)) score += 1.5;
    if (RESULT_VERB.test(sentence)) score += 1;
    if (titleWords.size > 0) {
      const own = contentWords(sentence);
      const shared = [...titleWords].filter((word) => own.has(word)).length;
      score += (2 * shared) / titleWords.size;
    }
    if (CONNECTIVE_OPENER.test(sentence)) score -= 1.5;
    else if (ANAPHOR_OPENER.test(sentence)) score -= 0.5;
    if (words < 10) score -= 0.5;
    if (words > 45) score -= 1;
    scored.push({ index, text: sentence, words, score, standalone: standaloneForm(sentence) });
  });
  return scored;
}

function byScore(a: ScoredSentence, b: ScoredSentence): number {
  return b.score - a.score || a.index - b.index;
}

function byPosition(a: ScoredSentence, b: ScoredSentence): number {
  return a.index - b.index;
}

/** Labelled facts from the item's metadata, for takeaways when its text is too short. */
export function fallbackFacts(item: ItemForWriting): string[] {
  const facts: string[] = [];
  if (item.authors.length > 0) {
    const shown = item.authors.slice(0, 3).join(', ');
    facts.push(`Authors: ${shown}${item.authors.length > 3 ? ' et al.' : '.'}`);
  }
  facts.push(`Source: ${item.source}${item.arxivId ? ` (arXiv:${item.arxivId})` : ''}.`);
  if (/^\d{4}-\d{2}-\d{2}/.test(item.publishedAt)) facts.push(`Published: ${item.publishedAt.slice(0, 10)}.`);
  facts.push(`Title: ${item.title.trim()}${/[.!?]$/.test(item.title.trim()) ? '' : '.'}`);
  facts.push(`Details: the source gave too little text to summarise; see the original item.`);
  return facts;
}

function pickSummary(scored: ScoredSentence[]): ScoredSentence[] {
  const byIndex = new Map(scored.map((sentence) => [sentence.index, sentence]));
  const picked = new Map<number, ScoredSentence>();
  // Leave 3 sentences for the takeaways whenever the text has at least 4 usable ones, self-contained if it can.
  const limit = scored.length >= 4 ? scored.length - 3 : scored.length;
  const selfContained = scored.filter((sentence) => sentence.standalone !== null).length;
  const keepFree = scored.length >= 4 ? Math.min(3, selfContained - 1) : 0;
  let free = selfContained;
  let words = 0;
  for (const sentence of [...scored].sort(byScore)) {
    if (picked.size === limit) break;
    if (picked.has(sentence.index)) continue;
    const group = [sentence];
    if (sentence.standalone === null && !picked.has(sentence.index - 1)) {
      const before = byIndex.get(sentence.index - 1);
      if (!before || before.standalone === null) continue;
      group.unshift(before);
    }
    const cost = group.reduce((total, member) => total + member.words, 0);
    const taken = group.filter((member) => member.standalone !== null).length;
    if (words + cost > SUMMARY_MAX_WORDS || picked.size + group.length > limit) continue;
    if (picked.size > 0 && taken > 0 && free - taken < keepFree) continue;
    for (const member of group) picked.set(member.index, member);
    words += cost;
    free -= taken;
  }
  return [...picked.values()].sort(byPosition);
}

export function writeItemExtractively(item: ItemForWriting): WrittenItem {
  const scored = scoreSentences(item.title, item.text);
  const summaryPicks = pickSummary(scored);
  const inSummary = new Set(summaryPicks.map((sentence) => sentence.index));
  // Right after its predecessor a sentence keeps its link phrase; elsewhere it is shown in its stand-alone form.
  const summary =
    summaryPicks
      .map((sentence) =>
        inSummary.has(sentence.index - 1) ? sentence.text : (sentence.standalone ?? sentence.text),
      )
      .join(' ') || `No description was available from ${item.source}; see the original for details.`;

  const rest = scored
    .filter((sentence) => !inSummary.has(sentence.index))
    .sort((a, b) => Number(a.standalone === null) - Number(b.standalone === null) || byScore(a, b));
  const reused = summaryPicks.slice().sort(byScore);
  const candidates = [...rest.slice(0, 3).sort(byPosition), ...reused].map(
    (sentence) => sentence.standalone ?? sentence.text,
  );
  const takeaways: string[] = [];
  const seen = new Set<string>();
  for (const candidate of [...candidates, ...fallbackFacts(item)]) {
    const key = normaliseForMatch(candidate);
    if (seen.has(key)) continue;
    seen.add(key);
    takeaways.push(candidate);
    if (takeaways.length === 3) break;
  }
  const { level, reason } = judgeLevel(item);
  return {
    summary,
    takeaways: takeaways as [string, string, string],
    level,
    levelReason: reason,
    writer: 'extractive',
  };
}
