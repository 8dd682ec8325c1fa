// Selection settings (issue 4). See docs/selection.md for how each one enters the score.
import { z } from 'zod';

export const selectionSchema = z
  .object({
    /** Topic keywords for the offline relevance signal, added to the product's default profile. */
    topics: z.array(z.string().min(1)).optional(),
    /** Topics this audience rarely acts on: matches lower offline relevance. Added to the defaults. */
    offTopics: z.array(z.string().min(1)).optional(),
    /** Keep the product's default topic profile for engineers building production AI systems. */
    defaultTopics: z.boolean().default(true),
    /** Cap on picks from one source (unset: no cap). */
    maxPerSource: z.number().int().positive().optional(),
    /** LLM triage: candidates per call (titles and first lines only). */
    triageBatchSize: z.number().int().min(1).max(200).default(40),
    /** LLM triage: how many of the best offline candidates are triaged (unset: 5 per edition slot). */
    triageLimit: z.number().int().min(0).max(2000).optional(),
  })
  .strict()
  .default({ defaultTopics: true, triageBatchSize: 40 });

export type SelectionConfig = z.infer<typeof selectionSchema>;
