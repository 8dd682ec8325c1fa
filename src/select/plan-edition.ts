// planEdition: the week's candidates + the editor's policy → which items go in, in what order, and why.
// Pure and deterministic (ties broken by key): no IO, no clock, no randomness. See docs/selection.md.
import { editionWindow } from '../core/dates.js';
import type { StoredItem } from '../core/types.js';
import { calibrateByKind, kindOf } from './calibrate.js';
import { dedupCandidates } from './dedup.js';
import { keywordVectors, type MmrPick, selectDiverse, themesOf, themeVectors } from './diversity.js';
import { buildProfile, documentTerms, scoreRelevance } from './relevance.js';
import { scoreCandidates } from './score.js';
import type { EditionPlan, PlannedItem, SelectionPolicy } from './types.js';

/** At most this share of the edition (rounded up) may share one main theme, while other items are left. */
export const MAX_THEME_SHARE = 0.5;

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
function ensureMinPosts(
  picks: MmrPick[],
  planned: PlannedItem[],
  minPosts: number,
  isPost: (index: number) => boolean,
  eligible: (index: number) => boolean,
): void {
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
  const { items: merged, aliases } = dedupCandidates(candidates);
  const members = new Map<string, string[]>();
  for (const [alias, key] of aliases) members.set(key, [...(members.get(key) ?? []), alias]);

  const excluded: EditionPlan['excluded'] = [];
  const kept: { item: StoredItem; forced: boolean }[] = [];
  for (const item of merged.sort(byKey)) {
    const state = membership(item.key, members.get(item.key) ?? [], policy);
    const manual = item.manual?.week === date;
    if (state.skipped) excluded.push({ key: item.key, reason: 'skipped by the editor for this week' });
    else if (state.featured && !state.pinned && !manual) {
      excluded.push({ key: item.key, reason: 'featured in an earlier published edition' });
    } else kept.push({ item, forced: state.pinned || manual });
  }
  for (const [alias, key] of [...aliases].sort()) excluded.push({ key: alias, reason: `merged into ${key}` });

  const profile = buildProfile({
    audience: policy.audience,
    topics: policy.topics,
    offTopics: policy.offTopics,
    defaults: policy.defaultTopics,
  });
  const documents = kept.map(({ item }) => documentTerms(item.title, item.text, profile.bigrams));
  const relevance = scoreRelevance(documents, profile);
  const scored = scoreCandidates(
    kept.map(({ item }) => item),
    relevance,
    profile.groups.length,
    policy,
    window,
  );
  calibrateByKind(
    kept.map(({ item }) => item),
    scored,
  );
  const planned: PlannedItem[] = kept.map(({ item, forced }, index) => ({
    item,
    score: scored[index]?.score ?? 0,
    signals: { ...scored[index]?.signals },
    pinned: forced,
  }));

  // Manual items first, then pinned ones, then the diverse best of the rest.
  const forcedIndexes = planned
    .map((entry, index) => ({ entry, index }))
    .filter(({ entry }) => entry.pinned)
    .sort(
      (a, b) => Number(!!b.entry.item.manual) - Number(!!a.entry.item.manual) || byScore(a.entry, b.entry),
    )
    .map(({ index }) => index);
  // Caps: per source (config) and per theme (half the edition), so one theme cannot fill it. The theme cap
  // gives way only when nothing else is left to pick.
  const titleTopics = scoreRelevance(
    kept.map(({ item }) => documentTerms(item.title, '', profile.bigrams)),
    profile,
  );
  const themes = relevance.map((result, index) =>
    themesOf(titleTopics[index]?.topics ?? [], result.topics, profile.groups),
  );
  const themeCap = Math.max(1, Math.ceil(policy.itemsPerEdition * MAX_THEME_SHARE));
  const perSource = new Map<string, number>();
  const perTheme = new Map<number, number>();
  const count = (index: number) => {
    const source = planned[index]?.item.primarySource ?? '';
    perSource.set(source, (perSource.get(source) ?? 0) + 1);
    for (const theme of themes[index] ?? []) perTheme.set(theme, (perTheme.get(theme) ?? 0) + 1);
  };
  forcedIndexes.forEach(count);
  const sourceCap = policy.maxPerSource ?? Number.POSITIVE_INFINITY;
  const underSourceCap = (index: number) =>
    (perSource.get(planned[index]?.item.primarySource ?? '') ?? 0) < sourceCap;
  const underThemeCap = (index: number) =>
    (themes[index] ?? []).every((theme) => (perTheme.get(theme) ?? 0) < themeCap);
  // Posts among the ranked picks (the editor's own additions do not count): at most maxPosts.
  const isPost = (index: number) => !!planned[index] && kindOf(planned[index].item) === 'post';
  let posts = 0;
  const maxPosts = policy.mix?.maxPosts ?? Number.POSITIVE_INFINITY;
  const underPostCap = (index: number) => !isPost(index) || posts < maxPosts;
  const countPick = (index: number) => {
    count(index);
    if (isPost(index)) posts++;
  };
  const input = {
    keywords: keywordVectors(documents),
    topics: themeVectors(relevance.map((result) => result.topics)),
  };
  const wanted = Math.max(0, policy.itemsPerEdition - forcedIndexes.length);
  const scores = planned.map((entry) => entry.score);
  // When too few items pass every cap, the caps give way one at a time: the theme cap first, then the post cap
  // (a week of blog posts only); the per-source cap always holds.
  const tiers: ((index: number) => boolean)[] = [
    (index) => underSourceCap(index) && underThemeCap(index) && underPostCap(index),
    (index) => underSourceCap(index) && underPostCap(index),
    underSourceCap,
  ];
  const picks: ReturnType<typeof selectDiverse> = [];
  for (const eligible of tiers) {
    if (picks.length >= wanted) break;
    picks.push(
      ...selectDiverse(scores, input, {
        count: wanted - picks.length,
        chosen: [...forcedIndexes, ...picks.map((pick) => pick.index)],
        eligible,
        onPick: countPick,
      }),
    );
  }
  ensureMinPosts(picks, planned, policy.mix?.minPosts ?? 0, isPost, underSourceCap);
  for (const pick of picks) {
    const entry = planned[pick.index];
    if (!entry) continue;
    entry.signals.diversityPenalty = Math.round(pick.penalty * 10_000) / 10_000;
  }
  const chosen = [...forcedIndexes, ...picks.map((pick) => pick.index)];
  markLeftOut(planned, picks, { underSourceCap, underThemeCap, underPostCap });
  return {
    date,
    window,
    picks: chosen.map((index) => planned[index]).filter((entry): entry is PlannedItem => !!entry),
    ranked: [...planned].sort(byScore),
    excluded,
  };
}

/**
 * Why each item that outscores a ranked pick was left out, as a signal (1), so the desk and `list` never show
 * a better-ranked item as "below the cut": a cap (per source, per theme, posts), the post mix, or — every cap
 * leaving room — too close to an item already chosen (the diversity step).
 */
function markLeftOut(
  planned: PlannedItem[],
  picks: MmrPick[],
  caps: Record<'underSourceCap' | 'underThemeCap' | 'underPostCap', (index: number) => boolean>,
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
