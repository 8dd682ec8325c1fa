// The caps planEdition picks under: per source (config), per main theme (half the edition) and on posts
// (config `selection.mix`). They count as items are chosen, so each check reads the edition so far.

import { kindOf } from './calibrate.js';
import type { PlannedItem, SelectionPolicy } from './types.js';

/** At most this share of the edition (rounded up) may share one main theme, while other items are left. */
export const MAX_THEME_SHARE = 0.5;

type IndexCheck = (index: number) => boolean;

export interface EditionCaps {
  underSourceCap: IndexCheck;
  /** The theme cap gives way only when nothing else is left to pick. */
  underThemeCap: IndexCheck;
  underPostCap: IndexCheck;
  isPost: IndexCheck;
  /** Count an item already in the edition (forced) against the source and theme caps. */
  count: (index: number) => void;
  /** Count a ranked pick: source, themes, and posts (the editor's own additions do not count as posts). */
  countPick: (index: number) => void;
}

export function editionCaps(
  planned: PlannedItem[],
  themes: number[][],
  policy: SelectionPolicy,
): EditionCaps {
  const themeCap = Math.max(1, Math.ceil(policy.itemsPerEdition * MAX_THEME_SHARE));
  const sourceCap = policy.maxPerSource ?? Number.POSITIVE_INFINITY;
  const maxPosts = policy.mix?.maxPosts ?? Number.POSITIVE_INFINITY;
  const perSource = new Map<string, number>();
  const perTheme = new Map<number, number>();
  let posts = 0;
  const sourceOf = (index: number) => planned[index]?.item.primarySource ?? '';
  const isPost = (index: number) => !!planned[index] && kindOf(planned[index].item) === 'post';
  const count = (index: number) => {
    perSource.set(sourceOf(index), (perSource.get(sourceOf(index)) ?? 0) + 1);
    for (const theme of themes[index] ?? []) perTheme.set(theme, (perTheme.get(theme) ?? 0) + 1);
  };
  return {
    underSourceCap: (index) => (perSource.get(sourceOf(index)) ?? 0) < sourceCap,
    underThemeCap: (index) => (themes[index] ?? []).every((theme) => (perTheme.get(theme) ?? 0) < themeCap),
    underPostCap: (index) => !isPost(index) || posts < maxPosts,
    isPost,
    count,
    countPick: (index) => {
      count(index);
      if (isPost(index)) posts++;
    },
  };
}
