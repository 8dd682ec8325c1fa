// Structured-output schemas sent to the model (as JSON schema) and checked on the way back. They are as strict as
// the rules JSON schema can say (exactly 3 takeaways, the level enum, one verdict per claim), so a grammar-constrained
// engine cannot answer otherwise; llm/provider-schema.ts drops what a provider's strict mode refuses. Word counts
// and plain-text rules are not expressible in JSON schema; validate-output.ts applies them.
import { z } from 'zod';
import { LEVELS } from '../core/types.js';

export const TAKEAWAY_COUNT = 3;

export const itemOutputSchema = z.object({
  summary: z.string().describe('One paragraph, 50–110 words, plain text.'),
  takeaways: z
    .array(z.string())
    .length(TAKEAWAY_COUNT, `give exactly ${TAKEAWAY_COUNT} takeaways`)
    .describe('Exactly 3 one-sentence takeaways.'),
  level: z.enum(LEVELS),
  levelReason: z.string().describe('One short line.'),
});
export type ItemOutput = z.infer<typeof itemOutputSchema>;

export const editionOutputSchema = z.object({
  title: z.string().describe('Two short themes joined by a comma.'),
  intro: z.string().describe('2–4 sentences naming only themes present.'),
});
export type EditionOutput = z.infer<typeof editionOutputSchema>;

const verdictSchema = z.object({
  id: z.number().int(),
  factual: z.boolean(),
  verdict: z.enum(['supported', 'unsupported']),
  quote: z.string(),
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
