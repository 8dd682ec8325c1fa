// planEdition: the week's candidates + the editor's policy → which items go in, in what order, and why.
// Pure and deterministic (ties broken by key): no IO, no clock, no randomness. See docs/selection.md.
import { editionWindow } from '../core/dates.js';
import type { DateWindow, StoredItem } from '../core/types.js';
import { type EditionCaps, editionCaps } from './_edition-caps.js';

import { calibrateByKind } from './calibrate.js';
import { dedupCandidates } from './dedup.js';
import {
  type DiversityInput,
  keywordVectors,
  type MmrPick,
  selectDiverse,
  themesOf,
  themeVectors,
} from './diversity.js';
import { buildProfile, itemAndTitleTerms, scoreRelevance } from './relevance.js';
import { scoreCandidates } from './score.js';
import type { EditionPlan, PlannedItem, SelectionPolicy } from './types.js';

export { MAX_THEME_SHARE } from './_edition-caps.js';

const byKey = (a: StoredItem, b: StoredItem) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
const byScore = (a: PlannedItem, b: PlannedItem) => b.score - a.score || byKey(a.item, b.item);

interface Membership {
  pinned: boolean;
  skipped: boolean;
  featured: boolean;
}

/** A merged item answers to every key it was merged from (pins and skips name store keys). */
function membership(key: string, memberKeys: string[], policy: SelectionPolicy): Membership {
  const keys = [key, ...memberKeys];
  return {
    pinned: keys.some((member) => policy.pinnedKeys.has(member)),
    skipped: keys.some((member) => policy.skippedKeys.has(member)),
    featured: keys.some((member) => policy.excludeKeys.has(member)),
  };
}

/**
 * At least `minPosts` posts among the ranked picks when on-topic posts exist: the best such post not picked
 * replaces the last paper picked, and carries `postMix: 1` in its signals.
 */
function ensureMinPosts({
  picks,
  planned,
  minPosts,
  isPost,
  eligible,
}: {
  picks: MmrPick[];
  planned: PlannedItem[];
  minPosts: number;
  isPost: (index: number) => boolean;
  eligible: (index: number) => boolean;
}): void {
  let have = picks.filter((pick) => isPost(pick.index)).length;
  if (have >= minPosts) return;
  const taken = new Set(picks.map((pick) => pick.index));
  const waiting = planned
    .map((entry, index) => ({ entry, index }))
    .filter(
      ({ entry, index }) =>
        !entry.pinned &&
        isPost(index) &&
        !taken.has(index) &&
        entry.signals.offTopic === 0 &&
        eligible(index),
    )
    .sort((a, b) => byScore(a.entry, b.entry));
  for (const { entry, index } of waiting) {
    if (have >= minPosts) break;
    const last = picks.findLastIndex((pick) => !isPost(pick.index));
    if (last < 0) break;
    const replaced = planned[picks[last]!.index];
    if (replaced) replaced.signals.leftOutForMix = 1;
    picks[last] = { index, penalty: 0, value: entry.score };
    entry.signals.postMix = 1;
    have++;
  }
}

export function planEdition(candidates: StoredItem[], policy: SelectionPolicy, date: string): EditionPlan {
  const window = editionWindow(date);
  const { kept, excluded } = admitCandidates(candidates, policy, date);
  const scored = scoreKept(kept, policy, window);
  const { planned } = scored;
  const forcedIndexes = forcedOrder(planned);
  const caps = editionCaps(planned, scored.themes, policy);
  forcedIndexes.forEach(caps.count);
  const picks = pickRanked({
    scored,
    forcedIndexes,
    caps,
    wanted: Math.max(0, policy.itemsPerEdition - forcedIndexes.length),
  });
  ensureMinPosts({
    picks,
    planned,
    minPosts: policy.mix?.minPosts ?? 0,
    isPost: caps.isPost,
    eligible: caps.underSourceCap,
  });
  for (const pick of picks) {
    const entry = planned[pick.index];
    if (!entry) continue;
    entry.signals.diversityPenalty = Math.round(pick.penalty * 10_000) / 10_000;
  }
  const chosen = [...forcedIndexes, ...picks.map((pick) => pick.index)];
  markLeftOut(planned, picks, caps);
  return {
    date,
    window,
    picks: chosen.map((index) => planned[index]).filter((entry): entry is PlannedItem => !!entry),
    ranked: [...planned].sort(byScore),
    excluded,
  };
}

interface KeptItem {
  item: StoredItem;
  /** Pinned by the editor or added by hand this week: in the edition whatever its score. */
  forced: boolean;
}

/** Merge duplicates, then drop what the editor skipped and what an earlier edition featured (unless forced). */
function admitCandidates(
  candidates: StoredItem[],
  policy: SelectionPolicy,
  date: string,
): { kept: KeptItem[]; excluded: EditionPlan['excluded'] } {
  const { items: merged, aliases } = dedupCandidates(candidates);
  const members = new Map<string, string[]>();
  for (const [alias, key] of aliases) members.set(key, [...(members.get(key) ?? []), alias]);
  const excluded: EditionPlan['excluded'] = [];
  const kept: KeptItem[] = [];
  for (const item of merged.sort(byKey)) {
    const state = membership(item.key, members.get(item.key) ?? [], policy);
    const manual = item.manual?.week === date;
    if (state.skipped) excluded.push({ key: item.key, reason: 'skipped by the editor for this week' });
    else if (state.featured && !state.pinned && !manual) {
      excluded.push({ key: item.key, reason: 'featured in an earlier published edition' });
    } else kept.push({ item, forced: state.pinned || manual });
  }
  for (const [alias, key] of [...aliases].sort()) excluded.push({ key: alias, reason: `merged into ${key}` });
  return { kept, excluded };
}

/** The kept items scored, with what the diversity step and the theme cap read from the same text. */
interface ScoredPlan {
  planned: PlannedItem[];
  /** Main themes per item (title topics first), for the theme cap. */
  themes: number[][];
  diversity: DiversityInput;
}

function scoreKept(kept: KeptItem[], policy: SelectionPolicy, window: DateWindow): ScoredPlan {
  const items = kept.map(({ item }) => item);
  const profile = buildProfile({
    audience: policy.audience,
    topics: policy.topics,
    offTopics: policy.offTopics,
    defaults: policy.defaultTopics,
  });
  const terms = items.map((item) => itemAndTitleTerms(item.title, item.text, profile.bigrams));
  const documents = terms.map((each) => each.item);
  const relevance = scoreRelevance(documents, profile);
  const scored = scoreCandidates({ items, relevance, profileSize: profile.groups.length, policy, window });
  calibrateByKind(items, scored);
  const planned: PlannedItem[] = kept.map(({ item, forced }, index) => ({
    item,
    score: scored[index]?.score ?? 0,
    signals: { ...scored[index]?.signals },
    pinned: forced,
  }));
  const titleTopics = scoreRelevance(
    terms.map((each) => each.title),
    profile,
  );
  const themes = relevance.map((result, index) =>
    themesOf(titleTopics[index]?.topics ?? [], result.topics, profile.groups),
  );
  const diversity = {
    keywords: keywordVectors(documents),
    topics: themeVectors(relevance.map((result) => result.topics)),
  };
  return { planned, themes, diversity };
}

/** Manual items first, then pinned ones, each group best first. */
function forcedOrder(planned: PlannedItem[]): number[] {
  return planned
    .map((entry, index) => ({ entry, index }))
    .filter(({ entry }) => entry.pinned)
    .sort(
      (a, b) => Number(!!b.entry.item.manual) - Number(!!a.entry.item.manual) || byScore(a.entry, b.entry),
    )
    .map(({ index }) => index);
}

/** The diverse best of the rest, `wanted` of them at most, counted against the caps as they are picked. */
function pickRanked({
  scored,
  forcedIndexes,
  caps,
  wanted,
}: {
  scored: ScoredPlan;
  forcedIndexes: number[];
  caps: EditionCaps;
  wanted: number;
}): MmrPick[] {
  const scores = scored.planned.map((entry) => entry.score);
  // When too few items pass every cap, the caps give way one at a time: the theme cap first, then the post cap
  // (a week of blog posts only); the per-source cap always holds.
  const tiers: ((index: number) => boolean)[] = [
    (index) => caps.underSourceCap(index) && caps.underThemeCap(index) && caps.underPostCap(index),
    (index) => caps.underSourceCap(index) && caps.underPostCap(index),
    caps.underSourceCap,
  ];
  const picks: MmrPick[] = [];
  for (const eligible of tiers) {
    if (picks.length >= wanted) break;
    picks.push(
      ...selectDiverse(scores, scored.diversity, {
        count: wanted - picks.length,
        chosen: [...forcedIndexes, ...picks.map((pick) => pick.index)],
        eligible,
        onPick: caps.countPick,
      }),
    );
  }
  return picks;
}

/**
 * Why each item that outscores a ranked pick was left out, as a signal (1), so the desk and `list` never show
 * a better-ranked item as "below the cut": a cap (per source, per theme, posts), the post mix, or — every cap
 * leaving capability — too close to an item already chosen (the diversity step).
 */
function markLeftOut(
  planned: PlannedItem[],
  picks: MmrPick[],
  caps: Pick<EditionCaps, 'underSourceCap' | 'underThemeCap' | 'underPostCap'>,
): void {
  if (!picks.length) return;
  const picked = new Set(picks.map((pick) => pick.index));
  const lowest = Math.min(...picks.map((pick) => planned[pick.index]?.score ?? 0));
  planned.forEach((entry, index) => {
    if (picked.has(index) || entry.pinned || entry.score <= lowest || entry.signals.leftOutForMix) return;
    if (!caps.underSourceCap(index)) entry.signals.leftOutForSourceCap = 1;
    else if (!caps.underThemeCap(index)) entry.signals.leftOutForThemeCap = 1;
    else if (!caps.underPostCap(index)) entry.signals.leftOutForPostCap = 1;
    else entry.signals.leftOutAsSimilar = 1;
  });
}
