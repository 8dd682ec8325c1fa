// Store contract: source state, editor decisions, the JSON cache, ingest runs. Runs on both databases.
import { describe, expect, it } from 'vitest';
import { storeDatabases, useTestStore } from '../support/database.js';

for (const { kind, skip } of storeDatabases()) {
  describe.skipIf(skip !== null)(`bookkeeping on ${kind}`, () => {
    const store = useTestStore(kind);

    it('keeps conditional-GET validators per source', async () => {
      expect(await store().sourceState.get('rss-openai')).toEqual({});
      const state = { 'https://openai.com/news/rss.xml': { etag: 'W/"abc"', lastModified: null } };
      await store().sourceState.set('rss-openai', state);
      await store().sourceState.set('rss-other', {});
      expect(await store().sourceState.get('rss-openai')).toEqual(state);
      await store().sourceState.set('rss-openai', {});
      expect(await store().sourceState.get('rss-openai')).toEqual({});
    });

    it('records editor decisions per week, replaces and removes them', async () => {
      await store().decisions.set({ week: '2026-05-04', itemKey: 'arxiv:2604.1', decision: 'pin' });
      await store().decisions.set({ week: '2026-05-04', itemKey: 'arxiv:2604.2', decision: 'skip' });
      await store().decisions.set({ week: '2026-05-11', itemKey: 'arxiv:2604.1', decision: 'skip' });
      await store().decisions.set({ week: '2026-05-04', itemKey: 'arxiv:2604.1', decision: 'skip' });
      await store().decisions.set({ week: '2026-05-04', itemKey: 'arxiv:2604.2', decision: null });
      await store().decisions.set({ week: '2026-05-04', itemKey: 'arxiv:never', decision: null });
      expect(await store().decisions.get('2026-05-04')).toEqual(new Map([['arxiv:2604.1', 'skip']]));
      expect(await store().decisions.get('2026-05-11')).toEqual(new Map([['arxiv:2604.1', 'skip']]));
      expect(await store().decisions.get('2026-05-18')).toEqual(new Map());
    });

    it('caches JSON values per namespace and overwrites them', async () => {
      const value = {
        summary: 'Text with "quotes", <tags> and \u0000 NUL',
        takeaways: ['a', 'b'],
        n: 1.5,
        ok: true,
      };
      await store().cache.put({ namespace: 'llm', key: 'k1', value });
      await store().cache.put({ namespace: 'enrich', key: 'k1', value: [1, 2] });
      expect(await store().cache.get('llm', 'k1')).toEqual({
        ...value,
        summary: 'Text with "quotes", <tags> and  NUL',
      });
      expect(await store().cache.get('enrich', 'k1')).toEqual([1, 2]);
      expect(await store().cache.get('llm', 'missing')).toBeNull();
      await store().cache.put({ namespace: 'llm', key: 'k1', value: 'replaced' });
      expect(await store().cache.get('llm', 'k1')).toBe('replaced');
    });

    it('reads expired cache entries as null and live ones as stored', async () => {
      await store().cache.put({ namespace: 'llm', key: 'expired', value: { a: 1 }, ttlSeconds: 0 });
      await store().cache.put({ namespace: 'llm', key: 'past', value: { a: 1 }, ttlSeconds: -60 });
      await store().cache.put({ namespace: 'llm', key: 'live', value: { a: 2 }, ttlSeconds: 3600 });
      expect(await store().cache.get('llm', 'expired')).toBeNull();
      expect(await store().cache.get('llm', 'past')).toBeNull();
      expect(await store().cache.get('llm', 'live')).toEqual({ a: 2 });
      await store().cache.put({ namespace: 'llm', key: 'past', value: { a: 3 } });
      expect(await store().cache.get('llm', 'past')).toEqual({ a: 3 });
    });

    it('reads many entries of a namespace in one call: the live ones found, by the keys asked', async () => {
      await store().cache.put({ namespace: 'many', key: 'a', value: { v: 1 } });
      await store().cache.put({ namespace: 'many', key: 'b', value: [2] });
      await store().cache.put({ namespace: 'many', key: 'gone', value: 3, ttlSeconds: -60 });
      await store().cache.put({ namespace: 'other', key: 'c', value: 4 });
      const found = await store().cache.getMany!('many', ['b', 'a', 'gone', 'c', 'missing', 'a']);
      expect([...found]).toEqual([
        ['b', [2]],
        ['a', { v: 1 }],
      ]);
      expect(await store().cache.getMany!('many', [])).toEqual(new Map());
    });

    it('remembers the last ingest run', async () => {
      expect(await store().ingestRuns.last()).toBeNull();
      const first = {
        startedAt: '2026-05-04T06:00:00.000Z',
        finishedAt: '2026-05-04T06:01:00.000Z',
        sources: [{ id: 'api-hf', status: 'ok' as const, items: 40 }],
      };
      const second = {
        startedAt: '2026-05-04T07:00:00.000Z',
        finishedAt: '2026-05-04T07:02:00.000Z',
        sources: [
          { id: 'rss-openai', status: 'error' as const, items: 0, error: 'HTTP 500', warnings: ['w'] },
        ],
      };
      await store().ingestRuns.record(second);
      await store().ingestRuns.record(first);
      expect(await store().ingestRuns.last()).toEqual(second);
    });
  });
}
