// Store contract: source state, editor decisions, the JSON cache, ingest runs. Runs on both databases.
import { describe, expect, it } from 'vitest';
import { storeDatabases, useTestStore } from '../support/database.js';

for (const { kind, skip } of storeDatabases()) {
  describe.skipIf(skip !== null)(`bookkeeping on ${kind}`, () => {
    const store = useTestStore(kind);

    it('keeps conditional-GET validators per source', async () => {
      expect(await store().getSourceState('rss-openai')).toEqual({});
      const state = { 'https://openai.com/news/rss.xml': { etag: 'W/"abc"', lastModified: null } };
      await store().setSourceState('rss-openai', state);
      await store().setSourceState('rss-other', {});
      expect(await store().getSourceState('rss-openai')).toEqual(state);
      await store().setSourceState('rss-openai', {});
      expect(await store().getSourceState('rss-openai')).toEqual({});
    });

    it('records editor decisions per week, replaces and removes them', async () => {
      await store().setDecision('2026-05-04', 'arxiv:2604.1', 'pin');
      await store().setDecision('2026-05-04', 'arxiv:2604.2', 'skip');
      await store().setDecision('2026-05-11', 'arxiv:2604.1', 'skip');
      await store().setDecision('2026-05-04', 'arxiv:2604.1', 'skip');
      await store().setDecision('2026-05-04', 'arxiv:2604.2', null);
      await store().setDecision('2026-05-04', 'arxiv:never', null);
      expect(await store().decisions('2026-05-04')).toEqual(new Map([['arxiv:2604.1', 'skip']]));
      expect(await store().decisions('2026-05-11')).toEqual(new Map([['arxiv:2604.1', 'skip']]));
      expect(await store().decisions('2026-05-18')).toEqual(new Map());
    });

    it('caches JSON values per namespace and overwrites them', async () => {
      const value = {
        summary: 'Text with "quotes", <tags> and \u0000 NUL',
        takeaways: ['a', 'b'],
        n: 1.5,
        ok: true,
      };
      await store().cachePut('llm', 'k1', value);
      await store().cachePut('enrich', 'k1', [1, 2]);
      expect(await store().cacheGet('llm', 'k1')).toEqual({
        ...value,
        summary: 'Text with "quotes", <tags> and  NUL',
      });
      expect(await store().cacheGet('enrich', 'k1')).toEqual([1, 2]);
      expect(await store().cacheGet('llm', 'missing')).toBeNull();
      await store().cachePut('llm', 'k1', 'replaced');
      expect(await store().cacheGet('llm', 'k1')).toBe('replaced');
    });

    it('reads expired cache entries as null and live ones as stored', async () => {
      await store().cachePut('llm', 'expired', { a: 1 }, 0);
      await store().cachePut('llm', 'past', { a: 1 }, -60);
      await store().cachePut('llm', 'live', { a: 2 }, 3600);
      expect(await store().cacheGet('llm', 'expired')).toBeNull();
      expect(await store().cacheGet('llm', 'past')).toBeNull();
      expect(await store().cacheGet('llm', 'live')).toEqual({ a: 2 });
      await store().cachePut('llm', 'past', { a: 3 });
      expect(await store().cacheGet('llm', 'past')).toEqual({ a: 3 });
    });

    it('remembers the last ingest run', async () => {
      expect(await store().lastIngestRun()).toBeNull();
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
      await store().recordIngestRun(second);
      await store().recordIngestRun(first);
      expect(await store().lastIngestRun()).toEqual(second);
    });
  });
}
