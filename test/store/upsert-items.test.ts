// Store contract: upsertItems stores each real-world item once, merging what its sources say. Runs on both databases.
import { describe, expect, it } from 'vitest';
import { editionWindow } from '../../src/core/dates.js';
import { itemKey } from '../../src/core/ids.js';
import { storeDatabases, useTestStore } from '../support/database.js';
import { paperItem, sourceItem } from '../support/source-items.js';

const WINDOW = editionWindow('2026-05-04');

for (const { kind, skip } of storeDatabases()) {
  describe.skipIf(skip !== null)(`upsertItems on ${kind}`, () => {
    const store = useTestStore(kind);

    it('stores new items and reads every field back', async () => {
      const item = sourceItem({ image: 'https://blog.example.com/cover.png', upvotes: 7 });
      expect(await store().items.upsert([item, paperItem('2604.24819')])).toEqual({
        inserted: 2,
        merged: 0,
        skipped: 0,
      });
      const stored = await store().items.get(itemKey(null, item.url));
      expect(stored).toMatchObject({
        key: 'url:https://blog.example.com/posts/evals-in-production',
        canonicalUrl: 'https://blog.example.com/posts/evals-in-production',
        url: item.url,
        title: 'Evals in production',
        text: item.text,
        authors: ['Ada Lovelace'],
        arxivId: null,
        image: 'https://blog.example.com/cover.png',
        publishedAt: '2026-05-01T09:30:00.000Z',
        upvotes: 7,
        citations: null,
        primarySource: 'rss-test',
        sources: [{ sourceId: 'rss-test', url: item.url, upvotes: 7 }],
        manual: null,
      });
      expect(Date.parse(stored!.firstSeenAt)).not.toBeNaN();
      expect((await store().items.get('arxiv:2604.24819'))?.canonicalUrl).toBe(
        'https://arxiv.org/abs/2604.24819',
      );
    });

    it('stores nothing twice when the same batch comes again', async () => {
      const batch = [sourceItem(), paperItem('2604.24819'), paperItem('2604.11111')];
      await store().items.upsert(batch);
      expect(await store().items.upsert(batch)).toEqual({ inserted: 0, merged: 3, skipped: 0 });
      const candidates = await store().items.candidates(WINDOW);
      expect(candidates).toHaveLength(3);
      for (const item of candidates) expect(item.sources).toHaveLength(1);
    });

    it('merges links to one page that differ only in tracking, scheme, host case or trailing slash', async () => {
      const result = await store().items.upsert([
        sourceItem({ url: 'https://blog.example.com/posts/evals-in-production?utm_source=rss' }),
        sourceItem({ sourceId: 'rss-other', url: 'http://WWW.blog.example.com/posts/evals-in-production/' }),
      ]);
      expect(result).toEqual({ inserted: 1, merged: 1, skipped: 0 });
      const [only, ...rest] = await store().items.candidates(WINDOW);
      expect(rest).toEqual([]);
      expect(only?.primarySource).toBe('rss-test');
      expect(only?.sources.map((ref) => ref.sourceId)).toEqual(['rss-test', 'rss-other']);
    });

    it('merges one paper reached through HF and through a feed that names its arXiv id', async () => {
      await store().items.upsert([
        paperItem('2604.24819', { upvotes: 40, publishedAt: '2026-05-02T00:00:00.000Z' }),
      ]);
      const fromFeed = sourceItem({
        url: 'https://blog.example.com/reading-2604-24819',
        arxivId: '2604.24819v2',
        upvotes: 90,
        text: 'A much longer description of the paper than the abstract we had before, with details.',
        image: 'https://blog.example.com/figure.png',
        publishedAt: '2026-04-30T12:00:00.000Z',
      });
      expect(await store().items.upsert([fromFeed])).toEqual({ inserted: 0, merged: 1, skipped: 0 });
      const paper = await store().items.get('arxiv:2604.24819');
      expect(paper).toMatchObject({
        primarySource: 'api-hf',
        url: 'https://huggingface.co/papers/2604.24819',
        title: 'Paper 2604.24819',
        upvotes: 90,
        text: fromFeed.text,
        image: 'https://blog.example.com/figure.png',
        authors: ['Grace Hopper', 'Alan Turing'],
        publishedAt: '2026-04-30T12:00:00.000Z',
      });
      expect(paper?.sources.map((ref) => ref.sourceId)).toEqual(['api-hf', 'rss-test']);
      expect(await store().items.candidates(WINDOW)).toHaveLength(1);
    });

    it('keeps the code repository HF lists through merges with other sources and repeats without it', async () => {
      const repo = 'https://github.com/FrontisAI/OpenRSI';
      await store().items.upsert([paperItem('2604.24819')]);
      await store().items.upsert([paperItem('2604.24819', { githubRepo: repo, upvotes: 30 })]);
      await store().items.upsert([
        sourceItem({ url: 'https://blog.example.com/on-2604-24819', arxivId: '2604.24819' }),
        paperItem('2604.24819', { githubRepo: null }),
        paperItem('2604.24820', { githubRepo: 'http://github.com/not/https' }),
      ]);
      const paper = await store().items.get('arxiv:2604.24819');
      expect(paper?.sources).toEqual([
        {
          sourceId: 'api-hf',
          url: 'https://huggingface.co/papers/2604.24819',
          upvotes: 30,
          githubRepo: repo,
        },
        { sourceId: 'rss-test', url: 'https://blog.example.com/on-2604-24819', upvotes: null },
      ]);
      const other = await store().items.get('arxiv:2604.24820');
      expect(other?.sources[0]).not.toHaveProperty('githubRepo');
    });

    it('fills empty fields from a later source and never empties a filled one', async () => {
      await store().items.upsert([sourceItem({ authors: [], image: null, text: 'Short.' })]);
      await store().items.upsert([
        sourceItem({
          sourceId: 'rss-b',
          authors: ['Someone'],
          image: 'https://img.example.com/a.png',
          text: 'Longer text.',
        }),
      ]);
      await store().items.upsert([
        sourceItem({ sourceId: 'rss-c', authors: [], image: null, text: '', title: '' }),
      ]);
      expect(await store().items.get(itemKey(null, sourceItem().url))).toMatchObject({
        title: 'Evals in production',
        authors: ['Someone'],
        image: 'https://img.example.com/a.png',
        text: 'Longer text.',
        primarySource: 'rss-test',
      });
    });

    it('infers the arXiv id from an arXiv link', async () => {
      await store().items.upsert([sourceItem({ url: 'https://arxiv.org/pdf/2604.24819v3', arxivId: null })]);
      expect((await store().items.get('arxiv:2604.24819'))?.arxivId).toBe('2604.24819');
      expect((await store().items.upsert([paperItem('2604.24819')])).merged).toBe(1);
    });

    it('re-keys a URL item that learns its arXiv id, and moves edition and decision references with it', async () => {
      const post = sourceItem({ url: 'https://lab.example.com/papers/attention' });
      await store().items.upsert([post]);
      const oldKey = itemKey(null, post.url);
      await store().editions.save(edition('2026-04-27', [oldKey]));
      await store().editions.markPublished('2026-04-27', '2026-04-27T08:00:00.000Z');
      await store().decisions.set({ week: '2026-05-04', itemKey: oldKey, decision: 'pin' });

      await store().items.upsert([{ ...post, sourceId: 'rss-b', arxivId: '2604.00001' }]);
      const item = await store().items.get('arxiv:2604.00001');
      expect(item?.key).toBe('arxiv:2604.00001');
      expect(item?.canonicalUrl).toBe('https://lab.example.com/papers/attention');
      expect((await store().items.get(oldKey))?.key).toBe('arxiv:2604.00001');
      expect(await store().editions.featuredBefore('2026-05-04')).toEqual(new Set(['arxiv:2604.00001']));
      expect(await store().decisions.get('2026-05-04')).toEqual(new Map([['arxiv:2604.00001', 'pin']]));
      expect(await store().items.candidates(WINDOW)).toHaveLength(1);
    });

    it('joins a stored URL item and a stored paper when an item shows they are one', async () => {
      await store().items.upsert([
        sourceItem({ url: 'https://lab.example.com/p/1', upvotes: 3 }),
        paperItem('2604.00002'),
      ]);
      await store().decisions.set({
        week: '2026-05-04',
        itemKey: 'url:https://lab.example.com/p/1',
        decision: 'skip',
      });
      const bridge = sourceItem({
        sourceId: 'rss-b',
        url: 'https://lab.example.com/p/1',
        arxivId: '2604.00002',
      });
      expect(await store().items.upsert([bridge])).toEqual({ inserted: 0, merged: 1, skipped: 0 });
      const candidates = await store().items.candidates(WINDOW);
      expect(candidates.map((item) => item.key)).toEqual(['arxiv:2604.00002']);
      expect(candidates[0]?.sources.map((ref) => ref.sourceId).sort()).toEqual([
        'api-hf',
        'rss-b',
        'rss-test',
      ]);
      expect(await store().decisions.get('2026-05-04')).toEqual(new Map([['arxiv:2604.00002', 'skip']]));
    });

    it('keeps the first arXiv id of a page when a later item claims another', async () => {
      await store().items.upsert([sourceItem({ arxivId: '2604.00003' })]);
      expect(
        await store().items.upsert([sourceItem({ sourceId: 'rss-b', arxivId: '2604.00004' })]),
      ).toMatchObject({
        inserted: 0,
        merged: 1,
      });
      const candidates = await store().items.candidates(WINDOW);
      expect(candidates.map((item) => item.key)).toEqual(['arxiv:2604.00003']);
    });

    it('dedups inside one batch by arXiv id and by URL, in batch order', async () => {
      const result = await store().items.upsert([
        sourceItem({ url: 'https://a.example.com/x', arxivId: '2604.00005' }),
        paperItem('2604.00005', { upvotes: 5 }),
        sourceItem({ sourceId: 'rss-c', url: 'https://a.example.com/x?utm_medium=email' }),
      ]);
      expect(result).toEqual({ inserted: 1, merged: 2, skipped: 0 });
      const [item] = await store().items.candidates(WINDOW);
      expect(item).toMatchObject({ key: 'arxiv:2604.00005', primarySource: 'rss-test', upvotes: 5 });
      expect(item?.sources).toHaveLength(3);
    });

    it('skips items it cannot identify or date, and stores the rest of the batch', async () => {
      const result = await store().items.upsert([
        sourceItem({ url: 'javascript:alert(1)' }),
        sourceItem({ url: 'https://ok.example.com/a', publishedAt: 'last Tuesday' }),
        sourceItem({ url: `https://long.example.com/${'a'.repeat(5000)}` }),
        sourceItem({ url: 'not a url', arxivId: '2604.00006' }),
        sourceItem({ url: 'https://ok.example.com/b' }),
      ]);
      expect(result).toEqual({ inserted: 2, merged: 0, skipped: 3 });
      expect((await store().items.get('arxiv:2604.00006'))?.url).toBe('https://arxiv.org/abs/2604.00006');
    });

    it('stores text PostgreSQL would refuse (NUL, lone surrogates) after repairing it', async () => {
      await store().items.upsert([
        sourceItem({ title: 'Bad\u0000 title \uD800', text: 'a\u0000b \uDC00c', authors: ['X\u0000Y'] }),
      ]);
      expect(await store().items.get(itemKey(null, sourceItem().url))).toMatchObject({
        title: 'Bad title \uFFFD',
        text: 'ab \uFFFDc',
        authors: ['XY'],
      });
    });

    it('stores 2,000 items in one call with the right counts', async () => {
      const items = Array.from({ length: 2000 }, (_, n) =>
        sourceItem({ url: `https://bulk.example.com/${n}`, arxivId: n % 4 ? null : `2605.${10000 + n}` }),
      );
      expect(await store().items.upsert([...items, ...items.slice(0, 100)])).toEqual({
        inserted: 2000,
        merged: 100,
        skipped: 0,
      });
      expect(await store().items.candidates(WINDOW)).toHaveLength(2000);
    });
  });
}

function edition(date: string, keys: string[]) {
  return {
    date,
    name: 'LLM News Digest',
    title: 'Week',
    intro: 'Intro',
    writer: 'extractive',
    sources: [],
    items: keys.map((key) => ({
      key,
      title: key,
      url: 'https://example.com',
      level: 'Accessible' as const,
      authors: [],
      summary: 's',
      takeaways: ['a', 'b', 'c'] as [string, string, string],
      source: 'rss-test',
      sources: ['rss-test'],
      arxivId: null,
      citations: null,
      image: null,
      publishedAt: '2026-04-25T00:00:00.000Z',
      writer: 'extractive',
    })),
  };
}
