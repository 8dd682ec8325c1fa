// Selection settings. See docs/selection.md for how each one enters the score.
import { z } from 'zod';

/** Posts (items without an arXiv id) among the ranked picks, besides the editor's own additions. */
export const mixSchema = z
  .object({
    /** At most this many posts among the ranked picks. */
    maxPosts: z.number().int().min(0).max(100).default(3),
    /** At least this many when on-topic posts exist (a post replaces the last paper picked). */
    minPosts: z.number().int().min(0).max(100).default(1),
  })
  .strict()
  .refine((mix) => mix.minPosts <= mix.maxPosts, {
    message: 'minPosts must not exceed maxPosts',
    path: ['minPosts'],
  })
  .default({ maxPosts: 3, minPosts: 1 });

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
    /** Posts among the picks: default up to 3, at least 1 when a relevant one exists. */
    mix: mixSchema,
    /** Learn from the editor's history (published picks, pins, skips) and blend it into relevance. */
    learnTaste: z.boolean().default(true),
    /**
     * How much what readers clicked in earlier editions moves an item's score (0: not at all, at most ±this). The
     * relevance signal weighs 0.5; 0.15 lets readers reorder close calls without outvoting the audience profile.
     */
    readerWeight: z.number().min(0).max(1).default(0.15),
    /**
     * An edition with fewer items is "thin": build exits 3, publish and send refuse it without --allow-thin (unset:
     * half of itemsPerEdition; 0: never thin).
     */
    minItems: z.number().int().min(0).max(100).optional(),
  })
  .strict()
  .default({
    defaultTopics: true,
    triageBatchSize: 40,
    mix: { maxPosts: 3, minPosts: 1 },
    learnTaste: true,
    readerWeight: 0.15,
  });
