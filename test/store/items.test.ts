// Store contract: candidates of a week, manual items, enrichment updates. Runs on both databases.
import { describe, expect, it } from 'vitest';
import { editionWindow } from '../../src/core/dates.js';
import { StoreError } from '../../src/core/errors.js';
import { itemKey } from '../../src/core/ids.js';
import { storeDatabases, useTestStore } from '../support/database.js';
import { paperItem, sourceItem } from '../support/source-items.js';

const WEEK = '2026-05-04';

for (const { kind, skip } of storeDatabases()) {
  describe.skipIf(skip !== null)(`items on ${kind}`, () => {
    const store = useTestStore(kind);

    it('lists the items whose UTC day falls in the window, edges included', async () => {
      const at = (publishedAt: string, n: number) =>
        sourceItem({ url: `https://w.example.com/${n}`, publishedAt });
      await store().items.upsert([
        at('2026-04-27T23:59:59.999Z', 1),
        at('2026-04-28T00:00:00.000Z', 2),
        at('2026-05-01T12:00:00+02:00', 3),
        at('2026-05-04T23:59:59.999Z', 4),
        at('2026-05-05T00:00:00.000Z', 5),
        at('2026-05-05T01:00:00+02:00', 6),
      ]);
      const keys = (await store().items.candidates(editionWindow(WEEK))).map((item) => item.url);
      expect(keys.sort()).toEqual([
        'https://w.example.com/2',
        'https://w.example.com/3',
        'https://w.example.com/4',
        'https://w.example.com/6',
      ]);
    });

    it('adds manual items to the candidates of their week only, whatever their date', async () => {
      const old = sourceItem({
        url: 'https://old.example.com/classic',
        publishedAt: '2019-03-01T00:00:00.000Z',
      });
      const stored = await store().items.addManual(old, WEEK, 'A classic worth rereading');
      expect(stored).toMatchObject({
        key: 'url:https://old.example.com/classic',
        manual: { week: WEEK, note: 'A classic worth rereading' },
        publishedAt: '2019-03-01T00:00:00.000Z',
      });
      expect((await store().items.candidates(editionWindow(WEEK))).map((item) => item.key)).toEqual([
        stored.key,
      ]);
      expect(await store().items.candidates(editionWindow('2026-05-11'))).toEqual([]);

      // Ingest seeing the same page later keeps it pinned; adding it for another week moves it.
      await store().items.upsert([{ ...old, sourceId: 'rss-b' }]);
      expect((await store().items.get(stored.key))?.manual).toEqual({
        week: WEEK,
        note: 'A classic worth rereading',
      });
      expect((await store().items.addManual(old, '2026-05-11', null)).manual).toEqual({
        week: '2026-05-11',
        note: null,
      });
    });

    it('pins an already stored paper when it is added by hand', async () => {
      await store().items.upsert([paperItem('2604.24819')]);
      const stored = await store().items.addManual(
        paperItem('2604.24819', { sourceId: 'manual' }),
        WEEK,
        null,
      );
      expect(stored.key).toBe('arxiv:2604.24819');
      expect(stored.primarySource).toBe('api-hf');
      expect(stored.manual).toEqual({ week: WEEK, note: null });
    });

    it('refuses a manual item it cannot identify', async () => {
      await expect(store().items.addManual(sourceItem({ url: 'ftp://x' }), WEEK, null)).rejects.toThrow(
        StoreError,
      );
    });

    it('returns null for an unknown key', async () => {
      expect(await store().items.get('url:https://nowhere.example.com/')).toBeNull();
    });

    it('applies enrichment patches field by field', async () => {
      const key = itemKey('2604.24819', '');
      await store().items.upsert([paperItem('2604.24819', { image: null })]);
      await store().items.update(key, { citations: 17, image: 'https://arxiv.org/fig.png' });
      await store().items.update(key, {
        authors: ['A. Author'],
        text: 'Full abstract.',
        title: 'Real title',
      });
      await store().items.update(key, {});
      expect(await store().items.get(key)).toMatchObject({
        citations: 17,
        image: 'https://arxiv.org/fig.png',
        authors: ['A. Author'],
        text: 'Full abstract.',
        title: 'Real title',
        upvotes: 12,
      });
      await store().items.update(key, { citations: null, image: null });
      expect(await store().items.get(key)).toMatchObject({ citations: null, image: null });
    });

    it('says so when the item to update does not exist', async () => {
      await expect(store().items.update('arxiv:0000.00000', { citations: 1 })).rejects.toThrow(StoreError);
    });
  });
}
