// One item, written only from its own sentences, in the reader's voice. Deterministic: same input, same output.
//
// The source text is cleaned first (clean-text.ts). Each usable sentence (see rejectReason) that can be put in the
// third person (extractive-voice.ts: "We propose" → "The authors propose") gets a role and a score:
//   role       contribution ("we propose / introduce / present …", "this paper …", the title's name),
//              result (a number with a unit or comparison, a result verb, "show/find that …"),
//              implication (what it enables or means in practice: deploy, cost, reliable, "suggest", "enables"),
//              background (the field's state: "LLMs are increasingly used…", "existing methods struggle…"),
//              or other (method detail)
//   position   +1.0 first sentence of a post (its lede), +0.5 last sentence (usually the conclusion)
//   cue        +2.0 contribution, +1.5 result number, +1.0 result verb, +1.0 implication
//   title      +2.0 × share of the title's content words the sentence contains
//   background −2.0 (unless it is also a contribution or a result)
//   length     −0.5 under 10 words, −1.0 over 45 words
//   context    −1.5 opens with a connective that needs the sentence before it, −0.5 opens with an anaphor
// Summary (≤ 100 words, source order): what the work is (the best contribution sentence, else a post's lede),
// what it found (the best result), why it matters (the best implication), then the best of the rest while words
// remain. With 4+ usable sentences, 3 are always left over for the takeaways.
// A sentence that refers back ("These results …") joins the summary only with the sentence before it; a leading
// link phrase ("However,", "To address this issue,") is trimmed when that sentence is not shown (extractive-context.ts).
// Takeaways: the remaining results and implications first, then contributions and method, in source order; never a
// background sentence (the field's state, the gap: "… remains a fundamental challenge"). When fewer than 3 remain,
// summary sentences (not background) are reused; when the text has fewer than 3 usable
// sentences in all, labelled facts fill in ("Authors: …", "Source: …", "Published: …", "Title: …",
// "Details: …") — never an invented claim. "The authors" is said once per item: later mentions, in the summary and
// the takeaways as shown, become "they", "their", "them" (nameAuthorsOnce).

import type { TakeawaySource, WrittenItem } from '../core/types.js';
import { tokenize } from '../select/text-tokens.js';
import { cleanSourceText, titleName } from './clean-text.js';
import { standaloneForm } from './extractive-context.js';
import { type ItemKind, nameAuthorsOnce, readerVoice } from './extractive-voice.js';
import { judgeLevel } from './level.js';
import type { PaperPart } from './paper-input.js';
import { normaliseForMatch, rejectReason, splitSentences, wordCount } from './sentences.js';
import { partUrl, sourceParts } from './takeaway-sources.js';
import type { ItemForWriting } from './types.js';

export const SUMMARY_MAX_WORDS = 100;

const CUE =
  /\b(?:we|i|this (?:paper|work|study|post|article|report|survey|tutorial|guide)|our (?:method|approach|framework|model|results?|work|analysis))\s+(?:\w+\s+)?(?:propose|introduce|present|develop|release|show|find|demonstrate|build|built|design|study|reveal|identify|argue|describe|explore|examine|investigate|analy[sz]e|walk|explain|share|launch|announce)[sd]?\b/i;
const RESULT_NUMBER =
  /\d(?:[\d.,]*)\s*(?:%|x\b|×|-?points?\b|-?fold\b)|\bup to \d|\b\d+(?:\.\d+)?\s*(?:times|percent)\b/i;
const RESULT_VERB =
  /\b(?:outperform\w*|improv\w*|achiev\w*|reduc\w*|surpass\w*|state-of-the-art|sota|faster|speedups?|gains?|(?:show|find|found|reveal|observe|demonstrate)s? that|results (?:show|indicate|suggest|reveal))\b/i;
const FINDING = /\b(?:show|find|found|reveal|observe|demonstrate)s? that\b/i;
const IMPLICATION =
  /\b(?:suggest\w*|implications?|enabl\w*|practical\w*|practitioners?|deploy\w*|production|real-world|in practice|cheaper|lower cost|cost-effective|without (?:retraining|fine-tuning|additional training)|drop-in|plug-and-play|reliab\w*|safer|at scale|scalab\w*|teams?|developers?|engineers?|recommend\w*|should|lessons?)\b/i;
const BACKGROUND =
  /\b(?:increasingly|have (?:emerged|become|shown|demonstrated|attracted|gained|achieved|enabled)|has (?:emerged|become|attracted|gained|enabled)|remains? (?:a |an )?(?:\w+ )?(?:challenge|challenging|difficult|unclear|limited|underexplored|open|elusive|problem|bottleneck)|(?:offer|provide|represent)s? (?:a )?promising|promising (?:path|direction|avenue|paradigm)|recent (?:advances|progress|years|work|studies)|in recent years|widely (?:used|adopted|deployed)|existing (?:methods|approaches|benchmarks|work|systems|evaluations)|current (?:methods|approaches|benchmarks|models|systems|evaluations)|(?:is|are) (?:crucial|essential|critical|important|key) (?:for|to)|suffer\w* from|struggle\w* (?:to|with)|(?:is|are) (?:often|typically|usually|commonly)|little is known|prior work|previous work)\b/i;

// Out of context these read as fragments of an argument the reader never saw.
const CONNECTIVE_OPENER =
  /^(?:however|yet|but|moreover|furthermore|in addition|additionally|besides|thus|therefore|hence|consequently|nevertheless|nonetheless|meanwhile|instead|still|also|then|finally|first(?:ly)?|second(?:ly)?|third(?:ly)?|to (?:address|tackle|solve|overcome|fill|bridge) (?:this|these|that|those|the)\b[^,]*|to this end|despite (?:this|these)|in (?:this|that) (?:case|setting|way)|as a result|on the other hand|in contrast|by contrast|specifically|concretely|notably|importantly)\b[,\s]/i;
const ANAPHOR_OPENER = /^(?:this|these|those|it|they|such|that)\s/i;

export type SentenceRole = 'contribution' | 'result' | 'implication' | 'background' | 'other';

export interface ScoredSentence {
  index: number;
  /** The sentence in the reader's voice. */
  text: string;
  words: number;
  score: number;
  role: SentenceRole;
  /** The text to show without the sentence before it (a leading link phrase trimmed), or null when it needs it. */
  standalone: string | null;
  /** The sentence as the source has it (the takeaway's supporting quote). */
  source: string;
}

function contentWords(text: string): Set<string> {
  return new Set(tokenize(text));
}

export function itemKind(item: { arxivId: string | null }): ItemKind {
  return item.arxivId ? 'paper' : 'post';
}

function roleOf(sentence: string, name: string | null): SentenceRole {
  const contribution =
    CUE.test(sentence) || (name !== null && new RegExp(`^${escapeRegExp(name)}\\b`).test(sentence));
  const result = RESULT_NUMBER.test(sentence) || RESULT_VERB.test(sentence);
  // "We propose X, which improves…" says what the work is; "We show that X improves by 12%" reports a finding.
  if (contribution && !RESULT_NUMBER.test(sentence) && !FINDING.test(sentence)) return 'contribution';
  // A number or a finding is a result; a bare "gains" or "improves" in the field's state ("X has enabled
  // substantial gains, but …") is background.
  if (RESULT_NUMBER.test(sentence) || FINDING.test(sentence)) return 'result';
  if (BACKGROUND.test(sentence)) return 'background';
  if (result) return 'result';
  if (IMPLICATION.test(sentence)) return 'implication';
  return 'other';
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Scores the usable sentences of an item's (cleaned) text; sentences that cannot be voiced are left out. */
export function scoreSentences(title: string, text: string, kind: ItemKind = 'paper'): ScoredSentence[] {
  const sentences = splitSentences(text);
  const titleWords = contentWords(title);
  const name = titleName(title);
  const last = sentences.length - 1;
  const scored: ScoredSentence[] = [];
  sentences.forEach((sentence, index) => {
    if (rejectReason(sentence)) return;
    const voiced = readerVoice(sentence, kind);
    const trimmed = standaloneForm(sentence);
    const standalone = trimmed === null ? null : readerVoice(trimmed, kind);
    if (voiced === null) return;
    const words = wordCount(voiced);
    const role = roleOf(sentence, name);
    let score = index === 0 && kind === 'post' ? 1 : 0;
    if (index === last && index > 1) score += 0.5;
    if (role === 'contribution' || CUE.test(sentence)) score += 2;
    if (RESULT_NUMBER.test(sentence)) score += 1.5;
    if (RESULT_VERB.test(sentence)) score += 1;
    if (IMPLICATION.test(sentence)) score += 1;
    if (role === 'background') score -= 2;
    if (titleWords.size > 0) {
      const own = contentWords(sentence);
      const shared = [...titleWords].filter((word) => own.has(word)).length;
      score += (2 * shared) / titleWords.size;
    }
    if (CONNECTIVE_OPENER.test(sentence)) score -= 1.5;
    else if (ANAPHOR_OPENER.test(sentence)) score -= 0.5;
    if (words < 10) score -= 0.5;
    if (words > 45) score -= 1;
    scored.push({ index, text: voiced, words, score, role, standalone, source: sentence });
  });
  // An abstract opens with its context and the gap it fills: in a paper, what comes before the first contribution
  // sentence is background unless it reports a result.
  const first = scored.find((sentence) => sentence.role === 'contribution');
  if (kind === 'paper' && first) {
    for (const sentence of scored) {
      if (sentence.index >= first.index) break;
      if (sentence.role === 'other' || sentence.role === 'implication') {
        sentence.role = 'background';
        sentence.score -= 2;
      }
    }
  }
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

/** The order in which the summary looks for sentences: what it is, what it found, why it matters, the rest. */
function summaryOrder(scored: ScoredSentence[], kind: ItemKind): ScoredSentence[] {
  const best = (role: SentenceRole) =>
    [...scored].filter((sentence) => sentence.role === role).sort(byScore)[0];
  const what =
    best('contribution') ??
    (kind === 'post' ? scored.find((sentence) => sentence.role !== 'background') : undefined);
  const lead = [what, best('result'), best('implication')].filter(
    (sentence): sentence is ScoredSentence => !!sentence,
  );
  const rest = [...scored].filter((sentence) => !lead.includes(sentence) && sentence.role !== 'background');
  return [...new Set([...lead, ...rest.sort(byScore)])];
}

function pickSummary(scored: ScoredSentence[], kind: ItemKind): ScoredSentence[] {
  const byIndex = new Map(scored.map((sentence) => [sentence.index, sentence]));
  const picked = new Map<number, ScoredSentence>();
  // Leave 3 sentences for the takeaways whenever the text has at least 4 usable ones, self-contained if it can.
  const limit = scored.length >= 4 ? scored.length - 3 : scored.length;
  // What the takeaways can use: stand-alone sentences that are not background.
  const selfContained = scored.filter(
    (sentence) => sentence.standalone !== null && sentence.role !== 'background',
  ).length;
  const keepFree = scored.length >= 4 ? Math.min(3, selfContained - 1) : 0;
  let free = selfContained;
  let words = 0;
  let order = summaryOrder(scored, kind);
  // A text of background only still needs a summary: its best sentences, then.
  if (order.length === 0) order = [...scored].sort(byScore);
  for (const sentence of order) {
    if (picked.size === limit) break;
    if (picked.has(sentence.index)) continue;
    const group = [sentence];
    if (sentence.standalone === null && !picked.has(sentence.index - 1)) {
      const before = byIndex.get(sentence.index - 1);
      if (!before || before.standalone === null) continue;
      group.unshift(before);
    }
    const cost = group.reduce((total, member) => total + member.words, 0);
    const taken = group.filter((member) => member.standalone !== null && member.role !== 'background').length;
    if (words + cost > SUMMARY_MAX_WORDS || picked.size + group.length > limit) continue;
    if (picked.size > 0 && taken > 0 && free - taken < keepFree) continue;
    // Beyond what / found / why, one more sentence at most: a summary, not the abstract again.
    if (picked.size >= 4) break;
    for (const member of group) picked.set(member.index, member);
    words += cost;
    free -= taken;
  }
  // Too thin to say what the work is: add the best remaining stand-alone sentences, takeaways may reuse them.
  for (const sentence of [...scored].sort(byScore)) {
    if (words >= 25 || picked.size >= limit) break;
    if (picked.has(sentence.index) || sentence.standalone === null) continue;
    if (words + sentence.words > SUMMARY_MAX_WORDS) continue;
    const takesFree = sentence.role !== 'background';
    if (takesFree && free - 1 < keepFree) continue;
    picked.set(sentence.index, sentence);
    words += sentence.words;
    if (takesFree) free--;
  }
  return [...picked.values()].sort(byPosition);
}

const TAKEAWAY_RANK: Record<SentenceRole, number> = {
  result: 0,
  implication: 0,
  contribution: 1,
  other: 1,
  background: 2,
};

/** A result sentence from a paper's results part outranks anything the abstract says in passing. */
const RESULTS_PART_BONUS = 1.5;

/**
 * Every part's sentences scored, numbered across parts (a gap between parts, so no sentence leans on the last one
 * of the part before), with the part each came from.
 */
function scoreParts(
  title: string,
  parts: PaperPart[],
  kind: ItemKind,
): { scored: ScoredSentence[]; partOf: Map<number, PaperPart> } {
  const scored: ScoredSentence[] = [];
  const partOf = new Map<number, PaperPart>();
  let offset = 0;
  for (const part of parts) {
    const own = scoreSentences(title, cleanSourceText(part.text, title), kind);
    for (const sentence of own) {
      if (part.role === 'results' && sentence.role === 'result') sentence.score += RESULTS_PART_BONUS;
      const index = sentence.index + offset;
      scored.push({ ...sentence, index });
      partOf.set(index, part);
    }
    offset += (own.at(-1)?.index ?? 0) + 2;
  }
  return { scored, partOf };
}

export function writeItemExtractively(input: ItemForWriting): WrittenItem {
  // Cleaning is idempotent, so text the pipeline already cleaned passes through unchanged.
  const item = { ...input, text: cleanSourceText(input.text, input.title) };
  const kind = itemKind(item);
  const { scored, partOf } = scoreParts(item.title, sourceParts(item), kind);
  const summaryPicks = pickSummary(scored, kind);
  const inSummary = new Set(summaryPicks.map((sentence) => sentence.index));
  // Right after its predecessor a sentence keeps its link phrase; elsewhere it is shown in its stand-alone form.
  const summary =
    summaryPicks
      .map((sentence) =>
        inSummary.has(sentence.index - 1) ? sentence.text : (sentence.standalone ?? sentence.text),
      )
      .join(' ') || `No description was available from ${item.source}; see the original for details.`;

  // Takeaways are findings (results, numbers, what was built), never the field's state or the gap it fills.
  const rest = scored
    .filter((sentence) => !inSummary.has(sentence.index) && sentence.role !== 'background')
    .sort(
      (a, b) =>
        Number(a.standalone === null) - Number(b.standalone === null) ||
        TAKEAWAY_RANK[a.role] - TAKEAWAY_RANK[b.role] ||
        byScore(a, b),
    );
  const reused = summaryPicks.filter((sentence) => sentence.role !== 'background').sort(byScore);
  const candidates = [...rest.slice(0, 3).sort(byPosition), ...reused].map((sentence) => ({
    text: sentence.standalone ?? sentence.text,
    from: sourceOf(sentence, partOf.get(sentence.index), item),
  }));
  const facts = fallbackFacts(item).map((text) => ({ text, from: null }));
  const takeaways: string[] = [];
  const support: (TakeawaySource | null)[] = [];
  const seen = new Set<string>();
  for (const candidate of [...candidates, ...facts]) {
    const key = normaliseForMatch(candidate.text);
    if (seen.has(key)) continue;
    seen.add(key);
    takeaways.push(candidate.text);
    support.push(candidate.from);
    if (takeaways.length === 3) break;
  }
  const { level, reason } = judgeLevel(item);
  const [named, ...points] = nameAuthorsOnce([summary, ...takeaways]);
  return {
    summary: named ?? summary,
    takeaways: points as [string, string, string],
    level,
    levelReason: reason,
    writer: 'extractive',
    support,
  };
}

function sourceOf(
  sentence: ScoredSentence,
  part: PaperPart | undefined,
  item: ItemForWriting,
): TakeawaySource | null {
  if (!part) return null;
  return {
    quote: sentence.source,
    section: part.id,
    label: part.label,
    url: partUrl(item.paper?.url, part.id),
  };
}
