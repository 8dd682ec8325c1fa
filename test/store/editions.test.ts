// Store contract: editions, what they featured, publication. Runs on both databases.
import { describe, expect, it } from 'vitest';
import { StoreError } from '../../src/core/errors.js';
import type { Edition } from '../../src/core/types.js';
import { storeDatabases, useTestStore } from '../support/database.js';

for (const { kind, skip } of storeDatabases()) {
  describe.skipIf(skip !== null)(`editions on ${kind}`, () => {
    const store = useTestStore(kind);

    it('saves an edition and reads it back as saved', async () => {
      const saved = edition('2026-05-04', ['arxiv:2604.24819', 'url:https://a.example.com/x']);
      await store().editions.save(saved);
      expect(await store().editions.get('2026-05-04')).toEqual({ ...saved, publishedAt: null });
      expect(await store().editions.get('2026-05-11')).toBeNull();
    });

    it('replaces an edition and the items it features, keeping its publication', async () => {
      await store().editions.save(edition('2026-04-27', ['a', 'b', 'c']));
      await store().editions.markPublished('2026-04-27', '2026-04-27T07:00:00.000Z');
      await store().editions.save({ ...edition('2026-04-27', ['c', 'd']), title: 'Rebuilt' });
      const again = await store().editions.get('2026-04-27');
      expect(again?.title).toBe('Rebuilt');
      expect(again?.items.map((item) => item.key)).toEqual(['c', 'd']);
      expect(again?.publishedAt).toBe('2026-04-27T07:00:00.000Z');
      expect(await store().editions.featuredBefore('2026-05-04')).toEqual(new Set(['c', 'd']));
    });

    it('counts as featured only items of published editions dated before the date', async () => {
      await store().editions.save(edition('2026-04-20', ['old', 'both']));
      await store().editions.save(edition('2026-04-27', ['draft']));
      await store().editions.save(edition('2026-05-04', ['this-week', 'both']));
      await store().editions.markPublished('2026-04-20', '2026-04-20T07:00:00.000Z');
      await store().editions.markPublished('2026-05-04', '2026-05-04T07:00:00.000Z');
      expect(await store().editions.featuredBefore('2026-05-04')).toEqual(new Set(['old', 'both']));
      expect(await store().editions.featuredBefore('2026-04-20')).toEqual(new Set());
      expect(await store().editions.featuredBefore('2026-05-05')).toEqual(
        new Set(['old', 'both', 'this-week']),
      );
    });

    it('lists editions newest first with their counts and publication', async () => {
      await store().editions.save(edition('2026-04-27', ['a']));
      await store().editions.save(edition('2026-05-04', ['a', 'b']));
      await store().editions.markPublished('2026-04-27', '2026-04-27T07:00:00.000Z');
      expect(await store().editions.list()).toEqual([
        {
          date: '2026-05-04',
          name: 'LLM News Digest',
          title: 'Title 2026-05-04',
          itemCount: 2,
          publishedAt: null,
        },
        {
          date: '2026-04-27',
          name: 'LLM News Digest',
          title: 'Title 2026-04-27',
          itemCount: 1,
          publishedAt: '2026-04-27T07:00:00.000Z',
        },
      ]);
    });

    it('saves an edition that features an item twice once per item', async () => {
      await store().editions.save(edition('2026-05-04', ['a', 'a', 'b']));
      await store().editions.markPublished('2026-05-04', '2026-05-04T07:00:00.000Z');
      expect(await store().editions.featuredBefore('2026-05-11')).toEqual(new Set(['a', 'b']));
    });

    it('refuses to publish an edition that does not exist', async () => {
      await expect(store().editions.markPublished('2026-05-04', '2026-05-04T07:00:00.000Z')).rejects.toThrow(
        StoreError,
      );
    });
  });
}

function edition(date: string, keys: string[]): Edition {
  return {
    date,
    name: 'LLM News Digest',
    title: `Title ${date}`,
    intro: 'What happened this week, for engineers building production AI systems.',
    writer: 'extractive',
    sources: [
      { id: 'api-hf', status: 'ok', items: 40 },
      { id: 'rss-openai', status: 'error', items: 0, error: 'HTTP 500' },
    ],
    items: keys.map((key, index) => ({
      key,
      title: `Item ${index} <b>unsafe</b>`,
      url: `https://example.com/${index}`,
      level: 'Intermediate',
      authors: ['Ada Lovelace'],
      summary: 'A summary.',
      takeaways: ['One.', 'Two.', 'Three.'],
      source: 'api-hf',
      sources: ['api-hf'],
      arxivId: null,
      citations: 3,
      image: null,
      publishedAt: '2026-05-01T00:00:00.000Z',
      writer: 'extractive',
      why: { score: 0.8, manual: false },
    })),
  };
}
