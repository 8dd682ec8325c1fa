// Hugging Face daily papers API: GET <url>?date=YYYY-MM-DD for each day of the window. Items are stamped with
// the list day requested (that decides the edition), link to the paper on arXiv, and carry HF upvotes and the
// code repository HF lists (`githubRepo`, a practitioner fact when the paper's own links name none).
import { z } from 'zod';
import { daysOf } from '../core/dates.js';
import { normaliseArxivId } from '../core/ids.js';
import type { HttpResponse, Source, SourceContext, SourceFetchResult } from '../core/ports.js';
import { collapse } from '../core/text.js';
import type { SourceItem } from '../core/types.js';
import { githubRepoUrl, httpUrl } from '../core/urls.js';
import { type DayRead, fetchDays, keepEarliest, mergeDays } from './_daily.js';

const authorSchema = z.object({ name: z.string().optional() });

/** The fields we read; anything else HF sends is ignored. */
export const hfEntrySchema = z.object({
  paper: z.object({
    id: z.string().min(1),
    title: z.string().optional(),
    summary: z.string().optional(),
    authors: z.array(authorSchema).optional(),
    upvotes: z.number().optional(),
    publishedAt: z.string().optional(),
    submittedOnDailyAt: z.string().optional(),
    /** Checked in toItem (only an https://github.com/<owner>/<repo> URL is kept): a bad one drops the link only. */
    githubRepo: z.unknown().optional(),
  }),
  title: z.string().optional(),
  summary: z.string().optional(),
  thumbnail: z.string().nullish(),
});
export type HfEntry = z.infer<typeof hfEntrySchema>;

export function hfDailyPapersSource(options: { id: string; url: string }): Source {
  return {
    id: options.id,
    kind: 'hf-daily-papers',
    async fetch(context: SourceContext): Promise<SourceFetchResult> {
      const { results, state } = await fetchDays({
        context,
        days: daysOf(context.window),
        urlFor: (day) => dayUrl(options.url, day),
        accept: 'application/json',
        read: (response, day) => readDay(response, day, options.id),
      });
      return mergeDays(results, state, keepEarliest);
    },
  };
}

export function dayUrl(base: string, day: string): string {
  const url = new URL(base);
  url.searchParams.set('date', day);
  return url.href;
}

function readDay(response: HttpResponse, day: string, sourceId: string): DayRead {
  const text = response.body.toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const type = response.headers['content-type'] ?? 'no content type';
    throw new Error(
      `not JSON (${type}, starts "${collapse(text.slice(0, 40))}"); is the URL the API endpoint, e.g. https://huggingface.co/api/daily_papers?`,
    );
  }
  if (!Array.isArray(json)) {
    throw new Error(`expected a JSON array of papers, got ${json === null ? 'null' : typeof json}`);
  }
  const items: SourceItem[] = [];
  let invalid = 0;
  let firstProblem: string | undefined;
  for (const raw of json) {
    const parsed = hfEntrySchema.safeParse(raw);
    if (!parsed.success) {
      invalid += 1;
      const issue = parsed.error.issues[0];
      firstProblem ??= issue ? `${issue.path.join('.') || 'entry'}: ${issue.message}` : 'invalid entry';
      continue;
    }
    const item = toItem(parsed.data, day, sourceId);
    if (item) items.push(item);
  }
  if (json.length > 0 && items.length === 0) {
    throw new Error(`none of the ${json.length} entries has the expected shape (${firstProblem})`);
  }
  const warnings = invalid ? [`skipped ${invalid} entries of the wrong shape (${firstProblem})`] : [];
  return { items, warnings };
}

function toItem(entry: HfEntry, day: string, sourceId: string): SourceItem | null {
  const { paper } = entry;
  const title = collapse(paper.title ?? entry.title ?? '');
  if (!title) return null;
  const arxivId = normaliseArxivId(paper.id);
  const id = encodeURIComponent(paper.id);
  const githubRepo = githubRepoUrl(paper.githubRepo);
  return {
    sourceId,
    url: arxivId ? `https://arxiv.org/abs/${arxivId}` : `https://huggingface.co/papers/${id}`,
    title,
    text: collapse(paper.summary ?? entry.summary ?? ''),
    authors: (paper.authors ?? []).map((author) => collapse(author.name ?? '')).filter(Boolean),
    arxivId,
    image:
      httpUrl(entry.thumbnail ?? null) ??
      `https://cdn-thumbnails.huggingface.co/social-thumbnails/papers/${id}.png`,
    publishedAt: `${day}T00:00:00.000Z`,
    upvotes: typeof paper.upvotes === 'number' ? paper.upvotes : null,
    ...(githubRepo ? { githubRepo } : {}),
  };
}
