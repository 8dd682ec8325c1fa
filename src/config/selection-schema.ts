// Selection settings (issue 4 grows this).
import { z } from 'zod';

export const selectionSchema = z
  .object({
    /** Topic keywords for the offline relevance signal. */
    topics: z.array(z.string().min(1)).optional(),
    /** Cap on picks from one source (unset: no cap). */
    maxPerSource: z.number().int().positive().optional(),
  })
  .default({});

export type SelectionConfig = z.infer<typeof selectionSchema>;
