import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.js';
import type { ConfigError } from '../../src/core/errors.js';
import { planEdition } from '../../src/select/plan-edition.js';
import { SCORE_WEIGHTS } from '../../src/select/score.js';
import { policy, storedItem } from '../support/stored-items.js';

const DATE = '2026-05-04';

function week(count: number) {
  return Array.from({ length: count }, (_, index) =>
    storedItem({
      key: `arxiv:2604.${String(20000 + index)}`,
      title: `Paper number ${index} on topic ${index % 7}`,
      upvotes: index,
    }),
  );
}

describe('planEdition', () => {
  it('picks itemsPerEdition items and ranks every remaining candidate', () => {
    const plan = planEdition(week(30), policy(), DATE);
    expect(plan.picks).toHaveLength(12);
    expect(plan.ranked).toHaveLength(30);
    expect(plan.window).toEqual({ start: '2026-04-28', end: DATE });
    for (let index = 1; index < plan.ranked.length; index++) {
      expect(plan.ranked[index - 1]!.score).toBeGreaterThanOrEqual(plan.ranked[index]!.score);
    }
  });

  it('is deterministic whatever the input order', () => {
    const items = week(25);
    const a = planEdition(items, policy(), DATE);
    const b = planEdition([...items].reverse(), policy(), DATE);
    expect(b.picks.map((pick) => pick.item.key)).toEqual(a.picks.map((pick) => pick.item.key));
    expect(b.ranked.map((row) => row.score)).toEqual(a.ranked.map((row) => row.score));
  });

  it('always includes manual and pinned items, first, and drops skipped ones', () => {
    const items = week(20);
    items.push(
      storedItem({
        key: 'url:https://example.com/manual',
        title: 'A note',
        text: '',
        manual: { week: DATE, note: null },
      }),
    );
    const lowest = items[0]!.key;
    const skipped = items[19]!.key;
    const plan = planEdition(
      items,
      policy({ pinnedKeys: new Set([lowest]), skippedKeys: new Set([skipped]) }),
      DATE,
    );
    expect(plan.picks[0]!.item.key).toBe('url:https://example.com/manual');
    expect(plan.picks[1]!.item.key).toBe(lowest);
    expect(plan.picks.slice(0, 2).every((pick) => pick.pinned)).toBe(true);
    expect(plan.picks.map((pick) => pick.item.key)).not.toContain(skipped);
    expect(plan.excluded).toContainEqual({ key: skipped, reason: 'skipped by the editor for this week' });
  });

  it('leaves out items featured in earlier editions unless pinned', () => {
    const items = week(14);
    const featured = items.slice(0, 3).map((item) => item.key);
    const plan = planEdition(
      items,
      policy({ excludeKeys: new Set(featured), pinnedKeys: new Set([featured[0]!]) }),
      DATE,
    );
    const keys = plan.ranked.map((row) => row.item.key);
    expect(keys).toContain(featured[0]);
    expect(keys).not.toContain(featured[1]);
    expect(plan.excluded.filter((entry) => entry.reason.includes('earlier published edition'))).toHaveLength(
      2,
    );
  });

  it('caps picks per source', () => {
    const items = week(20).map((item, index) => (index < 15 ? item : { ...item, primarySource: 'rss-blog' }));
    const plan = planEdition(items, policy({ maxPerSource: 4, itemsPerEdition: 8 }), DATE);
    const counts = new Map<string, number>();
    for (const pick of plan.picks)
      counts.set(pick.item.primarySource, (counts.get(pick.item.primarySource) ?? 0) + 1);
    expect(counts.get('api-hf')).toBe(4);
    expect(counts.get('rss-blog')).toBe(4);
  });

  it('records every signal and its contribution, summing to the score', () => {
    const plan = planEdition(week(5), policy(), DATE);
    for (const row of plan.ranked) {
      const total = Object.keys(SCORE_WEIGHTS).reduce(
        (sum, name) => sum + (row.signals[`${name}Points`] ?? 0),
        0,
      );
      expect(total).toBeCloseTo(row.score, 3);
      for (const name of Object.keys(SCORE_WEIGHTS)) expect(row.signals[name]).toBeTypeOf('number');
    }
  });

  it('plans an empty week, and still picks items with no text or an unreadable date', () => {
    expect(planEdition([], policy(), DATE).picks).toEqual([]);
    const odd = [
      storedItem({ key: 'url:https://example.com/a', title: '', text: '', publishedAt: 'not a date' }),
      storedItem({ key: 'url:https://example.com/b', title: 'B', text: '', publishedAt: '' }),
    ];
    const plan = planEdition(odd, policy(), DATE);
    expect(plan.picks).toHaveLength(2);
    for (const pick of plan.picks) {
      expect(Number.isFinite(pick.score)).toBe(true);
      expect(pick.signals.noText).toBe(1);
      expect(pick.signals.recency).toBe(0);
    }
  });
});

describe('posts in the mix', () => {
  // 20 papers with upvotes and 6 on-topic posts with none: raw scores put every post below the papers.
  const papers = Array.from({ length: 20 }, (_, index) =>
    storedItem({
      key: `arxiv:2604.${30000 + index}`,
      title: `Agent evaluation paper ${index}`,
      upvotes: 50 + index,
    }),
  );
  const posts = Array.from({ length: 6 }, (_, index) =>
    storedItem({
      key: `url:https://blog.example.com/${index}`,
      title: `Running agent evals in production, part ${index}`,
      upvotes: null,
      primarySource: 'rss-blog',
      text: 'Notes on tool use, failure modes and monitoring of agents in production. '.repeat(2 + index),
    }),
  );
  const isPost = (key: string) => key.startsWith('url:');

  it("puts posts on the papers' scale and keeps at most maxPosts of them", () => {
    const plan = planEdition([...papers, ...posts], policy({ mix: { maxPosts: 3, minPosts: 1 } }), DATE);
    const picked = plan.picks.filter((pick) => isPost(pick.item.key));
    expect(picked.length).toBeGreaterThanOrEqual(1);
    expect(picked.length).toBeLessThanOrEqual(3);
    const best = plan.ranked.find((entry) => isPost(entry.item.key))!;
    expect(best.signals.kindCalibrationPoints).toBeDefined();
    expect(plan.ranked.indexOf(best)).toBeLessThan(12);
    const unbounded = planEdition(
      [...papers, ...posts],
      policy({ mix: { maxPosts: 12, minPosts: 0 } }),
      DATE,
    );
    expect(unbounded.picks.filter((pick) => isPost(pick.item.key)).length).toBeGreaterThanOrEqual(
      picked.length,
    );
  });

  it('brings in the best on-topic post when the ranking would pick none, after editor additions', () => {
    const manual = storedItem({
      key: 'url:https://editor.example.com/note',
      title: 'An editor note on agents',
      upvotes: null,
      manual: { week: DATE, note: null },
    });
    const plan = planEdition(
      [manual, ...papers, ...posts],
      policy({ itemsPerEdition: 4, mix: { maxPosts: 0, minPosts: 0 } }),
      DATE,
    );
    expect(plan.picks[0]!.item.key).toBe(manual.key);
    expect(plan.picks.slice(1).some((pick) => isPost(pick.item.key))).toBe(false);
    const mixed = planEdition(
      [manual, ...papers, ...posts],
      policy({ itemsPerEdition: 4, mix: { maxPosts: 2, minPosts: 2 } }),
      DATE,
    );
    expect(mixed.picks[0]!.item.key).toBe(manual.key);
    expect(mixed.picks.slice(1).filter((pick) => isPost(pick.item.key))).toHaveLength(2);
  });
});

describe('selection.mix config', () => {
  it('defaults to up to 3 posts, at least 1, and names the field it refuses', () => {
    expect(parseConfig({}).selection.mix).toEqual({ maxPosts: 3, minPosts: 1 });
    const issues = (input: unknown) => {
      try {
        parseConfig({ selection: { mix: input } });
      } catch (error) {
        return (error as ConfigError).issues.map((issue) => `${issue.path}: ${issue.message}`);
      }
      return [];
    };
    expect(issues({ maxPosts: 1, minPosts: 2 }).join('\n')).toMatch(
      /selection\.mix\.minPosts: minPosts must not exceed maxPosts/,
    );
    expect(issues({ maxPosts: -1 }).join('\n')).toMatch(/selection\.mix\.maxPosts/);
    expect(issues({ maxPost: 2 }).join('\n')).toMatch(/selection\.mix: unknown field\(s\) "maxPost"/);
  });
});
