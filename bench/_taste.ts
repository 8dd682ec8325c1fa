// Figures for editorial quality on real weeks: recall of the reference picks with learned taste (leave-one-day-out
// history), the reader's voice and the levels of the extractive writer, and posts among the picks of the sample
// week (a recorded HF list of 30 papers and seven real blog feeds).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseConfig } from '../src/config/index.js';
import { addDays } from '../src/core/dates.js';
import type { StoredItem } from '../src/core/types.js';
import { toWritingInput } from '../src/editions/edition-items.js';
import { kindOf } from '../src/select/calibrate.js';
import { planEdition } from '../src/select/plan-edition.js';
import { fitTaste, type TasteSignal, tasteScores } from '../src/select/taste.js';
import type { SelectionPolicy } from '../src/select/types.js';
import { toItem } from '../src/sources/_feed-items.js';
import { parseFeedBytes } from '../src/sources/_feed-parse.js';
import { writeItemExtractively } from '../src/write/extractive-item.js';
import { hasFirstPerson } from '../src/write/extractive-voice.js';
import { storedFrom } from '../test/support/stored-items.js';

/**
 * Taste scores where each day's items are scored by a model fitted on the other days only (the reference picks of
 * those days as positives, their other papers as negatives), so no item's own label teaches its score.
 */
export function leaveOneDayOut(items: StoredItem[], reference: string[]): TasteSignal {
  const day = (item: StoredItem) => item.publishedAt.slice(0, 10);
  const scores = new Map<string, number>();
  let positives = Number.POSITIVE_INFINITY;
  for (const held of new Set(items.map(day))) {
    const training = items.filter((item) => day(item) !== held);
    const model = fitTaste(
      training.map((item) => ({
        title: item.title,
        text: item.text,
        positive: reference.includes(item.arxivId ?? ''),
      })),
    );
    const heldOut = items.filter((item) => day(item) === held);
    if (!model) continue;
    positives = Math.min(positives, model.positives);
    tasteScores(model, heldOut).forEach((score, index) => {
      scores.set(heldOut[index]!.key, score);
    });
  }
  return {
    positives: Number.isFinite(positives) ? positives : 0,
    scores: (candidates) => candidates.map((item) => scores.get(item.key) ?? 0),
  };
}

export function voiceAndLevels(items: StoredItem[]): Record<string, string | number> {
  const written = items.map((item) =>
    writeItemExtractively(toWritingInput({ item, score: 0, signals: {}, pinned: false })),
  );
  const voiced = written.filter((item) => ![item.summary, ...item.takeaways].some(hasFirstPerson)).length;
  const levels = { Accessible: 0, Intermediate: 0, Advanced: 0 };
  for (const item of written) levels[item.level]++;
  return {
    "summaries + takeaways in the reader's voice (no we/our/I)": `${voiced} / ${written.length}`,
    'levels on the reference week pool (Acc / Int / Adv)': `${levels.Accessible} / ${levels.Intermediate} / ${levels.Advanced}`,
  };
}

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures', 'real');
const MIX_WEEK = '2026-08-03';
/** Seven real blog feeds an AI digest follows (recorded captures, see test/fixtures/real/PROVENANCE.md). */
const BLOG_FEEDS = [
  'ai-blogs/anthropic_engineering_olshansk_full_2026-08-22.xml',
  'ai-blogs/chip_huyen_feed_2026-08-20_first4.xml',
  'ai-blogs/huggingface_blog_feed_2026-08-20_first6.xml',
  'ai-blogs/together_ai_blog_rss_2026-08-20_first4.xml',
  'ai-blogs/openai_research_olshansk_full_2026-08-22.xml',
  'simonwillison/atom_everything_2026-08-22.xml',
  'substack/interconnects.ai_feed_2026-08-02.xml',
];

/**
 * A week of 30 real HF papers (the recorded daily list of 2026-07-31) and the entries of 7 real blog feeds, every
 * item dated inside one window so they compete: the situation where all 12 picks used to be papers.
 */
function mixedWeek(): StoredItem[] {
  const days = Array.from({ length: 7 }, (_, index) => addDays(MIX_WEEK, -index));
  const dated = (index: number) => `${days[index % days.length]}T12:00:00.000Z`;
  const papers = (
    JSON.parse(readFileSync(join(FIXTURES, 'hf-daily-papers', 'daily_papers_2026-07-31.json'), 'utf8')) as {
      paper: { id: string; title: string; summary: string; upvotes: number; authors: { name: string }[] };
    }[]
  ).map((entry, index) =>
    storedFrom({
      sourceId: 'api-hf',
      url: `https://arxiv.org/abs/${entry.paper.id}`,
      title: entry.paper.title,
      text: entry.paper.summary,
      authors: entry.paper.authors.map((author) => author.name),
      arxivId: entry.paper.id,
      image: null,
      publishedAt: dated(index),
      upvotes: entry.paper.upvotes,
    }),
  );
  const posts = BLOG_FEEDS.flatMap((file, feedIndex) => {
    const { feed } = parseFeedBytes(readFileSync(join(FIXTURES, file)));
    // About a week of each feed: its 6 newest entries.
    return feed.entries.slice(0, 6).flatMap((entry, index) => {
      const item = toItem(entry, feed.link ?? null, `blog-${feedIndex + 1}`);
      if (typeof item === 'string' || item.arxivId) return [];
      return [storedFrom({ ...item, publishedAt: dated(index + feedIndex) })];
    });
  });
  return [...papers, ...posts];
}

export function samplePostMix(): Record<string, string | number> {
  const candidates = mixedWeek();
  const config = parseConfig({});
  const policy: SelectionPolicy = {
    itemsPerEdition: 12,
    sourceWeights: {},
    audience: config.audience,
    topics: [],
    excludeKeys: new Set(),
    pinnedKeys: new Set(),
    skippedKeys: new Set(),
    mix: config.selection.mix,
  };
  const plan = planEdition(candidates, policy, MIX_WEEK);
  const noMix = planEdition(candidates, { ...policy, mix: { maxPosts: 12, minPosts: 0 } }, MIX_WEEK);
  const posts = (picks: typeof plan.picks) => picks.filter((pick) => kindOf(pick.item) === 'post');
  const bestPostRank = (ranked: typeof plan.ranked) =>
    ranked.findIndex((entry) => kindOf(entry.item) === 'post') + 1;
  return {
    'mixed week candidates (papers / posts)': `${candidates.filter((item) => item.arxivId).length} / ${candidates.filter((item) => !item.arxivId).length}`,
    'posts among the 12, mixed week (selection.mix default)': posts(plan.picks).length,
    'posts among the 12, mixed week (calibrated, no mix bounds)': posts(noMix.picks).length,
    'best post rank, mixed week': bestPostRank(plan.ranked),
    'posts picked': posts(plan.picks)
      .map((pick) => pick.item.title.slice(0, 50))
      .join(' | '),
  };
}
