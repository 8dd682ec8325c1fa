// Publishing settings (issue 5 grows this).
import { z } from 'zod';

export const publishSchema = z
  .object({
    /** Absolute base URL of the published site, used for canonical links and feeds. */
    baseUrl: z.string().url().optional(),
  })
  .default({});

export type PublishConfig = z.infer<typeof publishSchema>;
