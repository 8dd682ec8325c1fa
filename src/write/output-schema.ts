// Structured-output schemas sent to the model (as JSON schema) and checked on the way back. They are as strict as
// the rules JSON schema can say (exactly 3 takeaways, the level enum, one verdict per claim), so a grammar-constrained
// engine cannot answer otherwise; llm/provider-schema.ts drops what a provider's strict mode refuses. Word counts
// and plain-text rules are not expressible in JSON schema; validate-output.ts applies them. Every string has a
// maxLength (its rule's word limit at about 7 characters a word, 9 for the one-sentence fields) and every array a length, so a grammar engine stops
// within a known number of tokens (llm/token-bound.ts; docs/answer-bounds.md states them per purpose).
import { z } from 'zod';
import { LEVELS } from '../core/types.js';

export const TAKEAWAY_COUNT = 3;
/** Word counts of the rules (validate-output.ts checks them; the schema bounds their characters). */
export const SUMMARY_WORDS = { min: 50, max: 110 } as const;
export const TAKEAWAY_WORDS = { min: 4, max: 40 } as const;

/** Characters a word of a rule may take (long technical words included); bounds each string the model writes. */
const CHARS_PER_WORD = 7;
/**
 * A short field averages more per word: one sentence of model names, benchmarks and numbers ("GPT-4o-mini's
 * 128k-token context on SWE-bench-Verified") runs to 9 a word, and a 35-word takeaway of a real abstract went past 280.
 */
const CHARS_PER_SHORT_WORD = 9;

/** The longest each field may be, in characters. */
export const MAX_CHARS = {
  summary: SUMMARY_WORDS.max * CHARS_PER_WORD,
  takeaway: TAKEAWAY_WORDS.max * CHARS_PER_SHORT_WORD,
  /** "One short line": at most 30 words. */
  levelReason: 30 * CHARS_PER_WORD,
  /** A support quote is a phrase or a short sentence copied from the source. */
  quote: 25 * CHARS_PER_SHORT_WORD,
  /** The check quotes the source sentence that settles a claim (a summary sentence may be long). */
  checkQuote: 60 * CHARS_PER_WORD,
  /** A section id ("s3", "abstract", "text"). */
  section: 24,
  /** Two themes of at most 6 words each, joined by ", ". */
  title: 12 * CHARS_PER_WORD + 2,
  /** 20–130 words. */
  intro: 130 * CHARS_PER_WORD,
} as const;

export const itemOutputSchema = z.object({
  summary: z.string().max(MAX_CHARS.summary).describe('One paragraph, 50–110 words, plain text.'),
  takeaways: z
    .array(z.string().max(MAX_CHARS.takeaway))
    .length(TAKEAWAY_COUNT, `give exactly ${TAKEAWAY_COUNT} takeaways`)
    .describe('Exactly 3 one-sentence takeaways.'),
  level: z.enum(LEVELS),
  levelReason: z.string().max(MAX_CHARS.levelReason).describe('One short line.'),
  // Added for full text: where each takeaway comes from, checked by support.ts and the faithfulness check.
  support: z
    .array(
      z.object({
        quote: z
          .string()
          .max(MAX_CHARS.quote)
          .describe('Words copied exactly from the source text that support the takeaway.'),
        section: z
          .string()
          .max(MAX_CHARS.section)
          .describe('The id of the <section> the quote is in, or "text" when there are none.'),
      }),
    )
    .length(TAKEAWAY_COUNT, `give exactly ${TAKEAWAY_COUNT} support entries, one per takeaway`)
    .describe('One entry per takeaway, in the same order.'),
});
export type ItemOutput = z.infer<typeof itemOutputSchema>;

export const editionOutputSchema = z.object({
  title: z.string().max(MAX_CHARS.title).describe('Two short themes joined by a comma.'),
  intro: z.string().max(MAX_CHARS.intro).describe('2–4 sentences naming only themes present.'),
});
export type EditionOutput = z.infer<typeof editionOutputSchema>;

const verdictSchema = z.object({
  id: z.number().int(),
  factual: z.boolean(),
  verdict: z.enum(['supported', 'unsupported']),
  quote: z.string().max(MAX_CHARS.checkQuote),
});

const checkOutputSchema = z.object({ claims: z.array(verdictSchema) });
export type CheckOutput = z.infer<typeof checkOutputSchema>;

/** The check's schema for `count` claims: one verdict each, ids 1…count. */
export function checkOutputSchemaFor(count: number): z.ZodType<CheckOutput> {
  return z.object({
    claims: z
      .array(verdictSchema.extend({ id: z.number().int().min(1).max(count) }))
      .length(count, `give exactly one verdict for each of the ${count} claims`),
  });
}
