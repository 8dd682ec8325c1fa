// An audit of written items against their sources, for `digest eval`: measures any writer (a model or the extractive
// one) the same way. Lexical and deterministic: a sentence counts as supported when most of its content words occur
// in the source; a superlative counts when the source itself never uses it.
import type { Level, WrittenItem } from '../core/types.js';
import { tokenize } from '../select/text-tokens.js';
import { partsText } from './paper-input.js';
import { splitSentences } from './sentences.js';
import type { ItemForWriting } from './types.js';

export interface ItemAudit {
  key: string;
  /** Summary sentences and takeaways checked. */
  sentences: number;
  /** Sentences with less than SUPPORT_THRESHOLD of their content words in the source. */
  unsupported: string[];
  /** Superlatives and hype words the written text uses and the source does not. */
  superlatives: string[];
  /** Claims the faithfulness check left unsupported (LLM writers with the check on). */
  flaggedClaims: number;
  summaryWords: number;
  firstPerson: boolean;
  level: Level;
}

/** Share of a sentence's content words that must occur in the source for it to count as supported. */
export const SUPPORT_THRESHOLD = 0.6;

const HYPE =
  /\b(best|first|novel|unprecedented|revolutionary|groundbreaking|breakthrough|game-changing|state-of-the-art|sota|dramatically|remarkabl[ey]|significantly|vastly|massive(?:ly)?|unparalleled|cutting-edge|superior|perfect(?:ly)?|always|never|most|least|fastest|largest|biggest|strongest|[a-z]{3,}est)\b/gi;
// -est words that are not superlatives.
const NOT_SUPERLATIVE = new Set([
  'interest',
  'test',
  'request',
  'suggest',
  'latest',
  'digest',
  'honest',
  'forest',
  'modest',
  'manifest',
  'harvest',
  'contest',
  'protest',
  'invest',
  'ingest',
  'nest',
  'rest',
  'west',
  'quest',
  'guest',
  'chest',
  'earnest',
  'arrest',
  'attest',
  'detest',
  'infest',
  'pest',
  'vest',
  'zest',
  'crest',
  'behest',
  'conquest',
  'unrest',
  'backtest',
  'pretest',
  'retest',
]);

export function auditItem(source: ItemForWriting, written: WrittenItem): ItemAudit {
  // A paper read in full is judged against the parts the writer read.
  const text = source.paper?.parts.length ? partsText(source.paper.parts) : source.text;
  const sourceWords = new Set(tokenize(`${source.title} ${text}`));
  const sourceText = `${source.title} ${text}`.toLowerCase();
  const claims = [...splitSentences(written.summary), ...written.takeaways];
  const unsupported = claims.filter((sentence) => {
    const words = tokenize(sentence);
    if (words.length < 3) return false;
    const found = words.filter((word) => sourceWords.has(word)).length;
    return found / words.length < SUPPORT_THRESHOLD;
  });
  const superlatives = new Set<string>();
  for (const match of `${written.summary} ${written.takeaways.join(' ')}`.matchAll(HYPE)) {
    const word = match[0].toLowerCase();
    if (NOT_SUPERLATIVE.has(word)) continue;
    if (!new RegExp(`\\b${word.replace(/[-]/g, '[- ]')}\\b`, 'i').test(sourceText)) superlatives.add(word);
  }
  const checks = written.checks as { claims?: { verdict: string; factual: boolean }[] } | undefined;
  return {
    key: source.key,
    sentences: claims.length,
    unsupported,
    superlatives: [...superlatives],
    flaggedClaims:
      checks?.claims?.filter((claim) => claim.factual && claim.verdict === 'unsupported').length ?? 0,
    summaryWords: written.summary.split(/\s+/).filter(Boolean).length,
    firstPerson: /\b(?:[Ww]e|[Oo]urs?|us|I|[Mm]y)\b/.test(
      `${written.summary} ${written.takeaways.join(' ')}`,
    ),
    level: written.level,
  };
}
