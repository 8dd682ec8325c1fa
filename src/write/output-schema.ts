// Structured-output schemas sent to the model (as JSON schema) and checked on the way back.
// Length and plain-text rules are not expressible in JSON schema; validate-output.ts applies them.
import { z } from 'zod';
import { LEVELS } from '../core/types.js';

export const itemOutputSchema = z.object({
  summary: z.string().describe('One paragraph, 50–110 words, plain text.'),
  // "Exactly 3" is checked by validate-output.ts: minItems/maxItems are not accepted by every provider's strict mode.
  takeaways: z.array(z.string()).describe('Exactly 3 one-sentence takeaways.'),
  level: z.enum(LEVELS),
  levelReason: z.string().describe('One short line.'),
  // Added for full text (issue 23): where each takeaway comes from, checked by support.ts and the faithfulness check.
  support: z
    .array(
      z.object({
        quote: z.string().describe('Words copied exactly from the source text that support the takeaway.'),
        section: z
          .string()
          .describe('The id of the <section> the quote is in, or "text" when there are none.'),
      }),
    )
    .describe('One entry per takeaway, in the same order.'),
});
export type ItemOutput = z.infer<typeof itemOutputSchema>;

export const editionOutputSchema = z.object({
  title: z.string().describe('Two short themes joined by a comma.'),
  intro: z.string().describe('2–4 sentences naming only themes present.'),
});
export type EditionOutput = z.infer<typeof editionOutputSchema>;

export const checkOutputSchema = z.object({
  claims: z.array(
    z.object({
      id: z.number().int(),
      factual: z.boolean(),
      verdict: z.enum(['supported', 'unsupported']),
      quote: z.string(),
    }),
  ),
});
export type CheckOutput = z.infer<typeof checkOutputSchema>;
