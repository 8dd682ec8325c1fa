// Scores comparable across kinds of item. Papers carry upvotes and citations, posts carry neither, and a long
// post's text matches the profile differently from an abstract: their raw scores are on different scales. So the
// on-topic items of the smaller kind are placed on the larger kind's scale by quantile: the post at the p-th
// percentile of the week's posts gets the score of the paper at the p-th percentile of the week's papers.
// Off-topic items keep their raw score; the shift is recorded as `kindCalibrationPoints`, so points still sum.
import type { StoredItem } from '../core/types.js';
import type { ScoredCandidate } from './score.js';

export type ItemKind = 'paper' | 'post';

/** A paper when an arXiv id is known; anything else (blog posts, news, manual pages) is a post. */
export function kindOf(item: Pick<StoredItem, 'arxivId'>): ItemKind {
  return item.arxivId ? 'paper' : 'post';
}

/** The kind with fewer on-topic items is calibrated only when the other has at least this many. */
const MIN_REFERENCE = 5;

function quantile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const at = p * (sorted.length - 1);
  const low = Math.floor(at);
  const high = Math.min(sorted.length - 1, low + 1);
  return (sorted[low] ?? 0) + ((sorted[high] ?? 0) - (sorted[low] ?? 0)) * (at - low);
}

const round = (value: number) => Math.round(value * 10_000) / 10_000;

/** Calibrates `scored` in place (score and signals), index-aligned with `items`. */
export function calibrateByKind(items: StoredItem[], scored: ScoredCandidate[]): void {
  const onTopic = (index: number) => (scored[index]?.signals.offTopic ?? 1) === 0;
  const byKind: Record<ItemKind, number[]> = { paper: [], post: [] };
  items.forEach((item, index) => {
    if (onTopic(index)) byKind[kindOf(item)].push(index);
  });
  const [minor, major] =
    byKind.post.length <= byKind.paper.length ? [byKind.post, byKind.paper] : [byKind.paper, byKind.post];
  if (minor.length === 0 || major.length < MIN_REFERENCE) return;
  const reference = major.map((index) => scored[index]?.score ?? 0).sort((a, b) => a - b);
  const ordered = [...minor].sort((a, b) => (scored[a]?.score ?? 0) - (scored[b]?.score ?? 0) || a - b);
  ordered.forEach((index, rank) => {
    const entry = scored[index];
    if (!entry) return;
    // Hazen plotting position: a lone post sits at the median, the best of seven near the top decile.
    const mapped = quantile(reference, (rank + 0.5) / ordered.length);
    entry.signals.kindCalibrationPoints = round(mapped - entry.score);
    entry.score = round(mapped);
  });
}
