import { z } from 'zod';
import { analyticsSchema } from './analytics-schema.js';
import { chatSchema, pushSchema } from './deliver-schema.js';
import { llmSchema } from './llm-schema.js';
import { publishSchema } from './publish-schema.js';
import { scheduleSchema } from './schedule-schema.js';
import { httpUrl, uniqueIds } from './schema-rules.js';
import { selectionSchema } from './selection-schema.js';
import { serverSchema } from './server-schema.js';

export const SOURCE_TYPES = ['hf-daily-papers', 'hf-daily-papers-rss', 'feed', 'manual'] as const;

export const sourceSchema = z
  .object({
    id: z
      .string()
      .regex(/^[a-z0-9][a-z0-9._-]*$/i, 'use letters, digits, ".", "_" or "-" (e.g. "rss-willison")'),
    type: z.enum(SOURCE_TYPES),
    /** What readers see after "via" (default: the known name of a shipped source, else the URL's host). */
    name: z.string().trim().min(1).max(80).optional(),
    /** For feeds, "{date}" in the URL is replaced by each day of the window (per-day archives). */
    url: httpUrl.optional(),
    weight: z.number().min(0).max(10).default(1),
    enabled: z.boolean().default(true),
    /** Longest the whole source may take, every day and retry included (default 60 000 ms). */
    deadlineMs: z.number().int().positive().max(3_600_000).optional(),
    /** Days a per-day source (HF daily papers, "{date}" feeds) fetches at once (default 3). */
    dayConcurrency: z.number().int().min(1).max(16).optional(),
  })
  .strict()
  .superRefine((source, context) => {
    if (source.type !== 'manual' && !source.url) {
      context.addIssue({ code: 'custom', path: ['url'], message: `a "${source.type}" source needs a url` });
    }
  });

export const httpSchema = z
  .object({
    timeoutMs: z.number().int().positive().default(20_000),
    maxBytes: z
      .number()
      .int()
      .positive()
      .default(20 * 1024 * 1024),
    retries: z.number().int().min(0).max(10).default(3),
    userAgent: z.string().min(1).optional(),
    /** Lets untrusted URLs reach loopback addresses. For tests and local demos only. */
    allowLoopback: z.boolean().default(false),
  })
  .strict()
  .default({ timeoutMs: 20_000, maxBytes: 20 * 1024 * 1024, retries: 3, allowLoopback: false });

export const enrichSchema = z
  .object({
    /** Look up arXiv metadata, citation counts and page text/images for candidates. */
    enabled: z.boolean().default(true),
    arxivApiUrl: httpUrl.default('http://export.arxiv.org/api/query'),
    semanticScholarUrl: httpUrl.default('https://api.semanticscholar.org/graph/v1'),
    /** Where a paper's HTML rendering is read: `<arxivHtmlUrl><id>v<N>` (LaTeXML; see enrich/full-text.ts). */
    arxivHtmlUrl: httpUrl.default('https://arxiv.org/html/'),
    /** Cached enrichment results older than this are fetched again. */
    refreshAgeHours: z.number().positive().default(72),
  })
  .strict()
  .default({
    enabled: true,
    arxivApiUrl: 'http://export.arxiv.org/api/query',
    semanticScholarUrl: 'https://api.semanticscholar.org/graph/v1',
    arxivHtmlUrl: 'https://arxiv.org/html/',
    refreshAgeHours: 72,
  });

export const DEFAULT_SOURCES = [
  {
    id: 'api-hf',
    name: 'Hugging Face Daily Papers',
    type: 'hf-daily-papers',
    url: 'https://huggingface.co/api/daily_papers',
  },
  { id: 'rss-openai', name: 'OpenAI News', type: 'feed', url: 'https://openai.com/news/rss.xml' },
  { id: 'rss-latentspace', name: 'Latent Space', type: 'feed', url: 'https://www.latent.space/feed' },
  {
    id: 'rss-willison',
    name: 'Simon Willison',
    type: 'feed',
    url: 'https://simonwillison.net/atom/everything/',
  },
] as const;

/** BCP 47 tags as editions and mails use them: "en", "de", "zh-CN", "pt-BR". */
export const languagesSchema = z
  .array(
    z
      .string()
      .regex(/^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/, 'use a language tag such as "en", "de" or "zh-CN"'),
  )
  .min(1, 'name at least the language editions are written in')
  .max(20)
  .default(['en'])
  .superRefine((tags, context) => {
    const seen = new Set<string>();
    tags.forEach((tag, index) => {
      if (seen.has(tag.toLowerCase()))
        context.addIssue({ code: 'custom', path: [index], message: `"${tag}" is listed twice` });
      seen.add(tag.toLowerCase());
    });
  });

export const configSchema = z
  .object({
    name: z.string().min(1).default('LLM News Digest'),
    audience: z.string().min(1).default('engineers building production AI systems'),
    itemsPerEdition: z.number().int().min(1).max(100).default(12),
    /** Languages of each edition; the first is the one it is written in, the others are translated. */
    languages: languagesSchema,
    sources: z
      .array(sourceSchema)
      .default(DEFAULT_SOURCES.map((source) => ({ ...source, weight: 1, enabled: true })))
      .superRefine(uniqueIds('source')),
    http: httpSchema,
    enrich: enrichSchema,
    llm: llmSchema,
    selection: selectionSchema,
    publish: publishSchema,
    server: serverSchema,
    chat: chatSchema,
    push: pushSchema,
    schedule: scheduleSchema,
    /** Counted links: off, aggregate (default when the service mails) or per-reader (docs/analytics.md). */
    analytics: analyticsSchema,
  })
  .strict();

export type ConfigInput = z.input<typeof configSchema>;
export type Config = z.infer<typeof configSchema>;
export type SourceConfig = z.infer<typeof sourceSchema>;
