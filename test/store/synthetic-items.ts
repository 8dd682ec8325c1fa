// Synthetic source items for store tests and measurements (built here, not recorded): feed-like posts with a
// paragraph of text, one in three carrying an arXiv id, spread over the 7 days ending on `week`.
import { addDays } from '../../src/core/dates.js';
import type { SourceItem } from '../../src/core/types.js';

const PARAGRAPH =
  'We study how retrieval-augmented generation behaves under distribution shift in production systems, ' +
  'measure latency and cost against quality on three workloads, and release the evaluation harness. ';

export function syntheticItems(
  count: number,
  week: string,
  options: { offset?: number; sourceId?: string } = {},
) {
  const offset = options.offset ?? 0;
  const items: SourceItem[] = [];
  for (let n = offset; n < offset + count; n++) {
    const day = addDays(week, -(n % 7));
    const arxivId = n % 3 === 0 ? `2606.${String(10000 + n).padStart(5, '0')}` : null;
    items.push({
      sourceId: options.sourceId ?? 'rss-synthetic',
      url: `https://blog.example.com/posts/${n}?utm_source=feed`,
      title: `Post number ${n}: lessons from production`,
      text: PARAGRAPH.repeat(1 + (n % 8)),
      authors: [`Author ${n % 97}`, `Author ${(n + 1) % 97}`],
      arxivId,
      image: n % 2 ? `https://blog.example.com/images/${n}.png` : null,
      publishedAt: `${day}T${String(n % 24).padStart(2, '0')}:15:00Z`,
      upvotes: n % 5 ? n % 300 : null,
    });
  }
  return items;
}
