// Store contract for the published archive (migration 004, SearchPort), on both databases: the search rows follow
// saveEdition and markPublished, drafts never show, ranking weighs titles over takeaways, filters narrow, and
// hostile search text is only ever words.
import { describe, expect, it } from 'vitest';
import { openStoreFromPglite } from '../../src/store/open-store.js';
import type { SearchItemsQuery } from '../../src/store/search.js';
import { freshPglite, storeDatabases, useTestStore } from '../support/database.js';
import { DRAFT_DATE, DRAFT_WORD, draftEdition, publishArchive } from '../support/published-archive.js';
import { weeklyEditions } from '../support/weekly-editions.js';

const page = { limit: 50, offset: 0 };
const query = (text: string, more: Partial<SearchItemsQuery> = {}): SearchItemsQuery => ({
  text,
  ...page,
  ...more,
});

for (const { kind, skip } of storeDatabases()) {
  describe.skipIf(skip !== null)(`published archive on ${kind}`, () => {
    const store = useTestStore(kind);

    it('indexes an edition when it is published, never while it is a draft', async () => {
      const [edition] = weeklyEditions(1);
      await store().editions.save({ ...edition!, publishedAt: null });
      expect(await store().search.items(query('goblins'))).toEqual([]);
      await store().editions.markPublished(edition!.date, edition!.publishedAt!);
      const hits = await store().search.items(query('goblins'));
      expect(hits.map((hit) => [hit.editionDate, hit.key])).toEqual([
        [edition!.date, 'url:https://openai.com/index/where-the-goblins-came-from/'],
      ]);
      expect(hits[0]).toMatchObject({
        title: 'Where the goblins came from',
        url: 'https://openai.com/index/where-the-goblins-came-from/',
        position: 11,
      });
      expect(hits[0]!.takeaways).toHaveLength(3);
    });

    it('rebuilds the rows when a published edition is saved again', async () => {
      const [edition] = weeklyEditions(1);
      await store().editions.save(edition!);
      expect(await store().search.items(query('goblins'))).toHaveLength(1);
      await store().editions.save({ ...edition!, publishedAt: undefined, items: edition!.items.slice(0, 2) });
      expect(await store().search.items(query('goblins'))).toEqual([]);
      expect(
        (await store().search.publishedItem(edition!.items[0]!.key)).map((item) => item.editionDate),
      ).toEqual([edition!.date]);
    });

    it('lists published editions only, paged, with the total', async () => {
      await publishArchive(store());
      const first = await store().search.publishedEditions({ limit: 2, offset: 0 });
      expect(first.total).toBe(3);
      expect(first.editions.map((edition) => edition.date)).toEqual(['2026-05-04', '2026-04-27']);
      const second = await store().search.publishedEditions({ limit: 2, offset: 2 });
      expect(second.editions.map((edition) => edition.date)).toEqual(['2026-04-20']);
      expect(await store().search.items(query(DRAFT_WORD))).toEqual([]);
      expect(await store().search.publishedItem(draftEdition().items[0]!.key)).toEqual([]);
      expect((await store().editions.list()).map((edition) => edition.date)).toContain(DRAFT_DATE);
    });

    it('ranks a title match above a takeaway match, then newer editions first', async () => {
      const [base] = weeklyEditions(1);
      const item = base!.items[0]!;
      const takeaways: [string, string, string] = ['One.', 'Two.', 'Three.'];
      const inTakeaways = {
        ...item,
        key: 'k:takeaway',
        title: 'Plain words',
        takeaways: ['A lighthouse.', 'Two.', 'Three.'] as [string, string, string],
      };
      const inTitle = {
        ...item,
        key: 'k:title',
        title: 'Lighthouse keeping',
        summary: 'Nothing else.',
        takeaways,
      };
      for (const date of ['2026-04-27', '2026-05-04']) {
        await store().editions.save({
          ...base!,
          date,
          items: [inTakeaways, inTitle],
          publishedAt: `${date}T09:00:00.000Z`,
        });
      }
      const hits = await store().search.items(query('lighthouse'));
      expect(hits.map((hit) => [hit.key, hit.editionDate])).toEqual([
        ['k:title', '2026-05-04'],
        ['k:title', '2026-04-27'],
        ['k:takeaway', '2026-05-04'],
        ['k:takeaway', '2026-04-27'],
      ]);
      expect(hits[0]!.rank).toBeGreaterThan(hits.at(-1)!.rank);
    });

    it('filters by edition dates, level, source and any of a set of phrases', async () => {
      await publishArchive(store());
      const all = await store().search.items(query('agents'));
      const dated = await store().search.items(query('agents', { from: '2026-04-27', to: '2026-04-27' }));
      expect(dated.length).toBe(all.length / 3);
      expect(new Set(dated.map((hit) => hit.editionDate))).toEqual(new Set(['2026-04-27']));
      const accessible = await store().search.items(query('agents', { level: 'Accessible' }));
      expect(accessible.length).toBeGreaterThan(0);
      expect(accessible.length).toBeLessThan(all.length);
      expect(accessible.every((hit) => hit.level === 'Accessible')).toBe(true);
      // websearch syntax: "or" between words.
      const either = await store().search.items(query('agents or goblins'));
      const bySource = await store().search.items(query('agents or goblins', { source: 'rss-openai' }));
      expect(bySource.length).toBe(3);
      expect(either.length).toBeGreaterThan(all.length);
      expect(bySource.every((hit) => hit.source === 'rss-openai')).toBe(true);
      expect(await store().search.items(query('agents', { source: 'no-such-source' }))).toEqual([]);
      const phrased = await store().search.items(
        query('agents', { anyOfPhrases: ['real capital', 'coworker'] }),
      );
      expect(new Set(phrased.map((hit) => hit.key))).toEqual(
        new Set(['arxiv:2604.26091', 'arxiv:2604.23781']),
      );
    });

    it('pages with limit and offset in a stable order', async () => {
      await publishArchive(store());
      const all = await store().search.items(query('agents'));
      const first = await store().search.items(query('agents', { limit: 3, offset: 0 }));
      const second = await store().search.items(query('agents', { limit: 3, offset: 3 }));
      expect([...first, ...second]).toEqual(all.slice(0, 6));
    });

    it('treats SQL and tsquery operators in search text as words, never as syntax', async () => {
      await publishArchive(store());
      for (const text of [
        "'; DROP TABLE items; --",
        "'; DROP TABLE search_items; --",
        'a & | ! :*',
        '"unbalanced quote',
        "it's (((",
        '\\',
        'x'.repeat(10_000),
        '\u0000 nul',
      ]) {
        await expect(store().search.items(query(text))).resolves.toBeInstanceOf(Array);
      }
      expect(await store().search.items(query('a & | ! :*'))).toEqual([]);
      // The tables are all still there and still answer.
      expect(await store().search.items(query('goblins'))).toHaveLength(3);
      expect(await store().items.get('anything')).toBeNull();
    });
  });
}

describe('migration 004-search', () => {
  it('indexes the editions published before it ran, and only those', async () => {
    const pglite = await freshPglite();
    try {
      const before = await openStoreFromPglite(pglite, { closeDatabase: false });
      await publishArchive(before, 2);
      await before.close();
      // As a database of the release before this migration: no search table, neither it nor any later migration
      // recorded (and their changes undone: 005 and 006 each add a send_log column, 007 the outbox and a subscriber
      // column, 008 a table, 009 two tables, 011 one, 012 two, 013 two send_log columns and its key, 014 a
      // subscriber column, 015 three tables, 016 two subscriber columns and indexes, 017 two send_log indexes, 018 a
      // table, 019 a table, 020 a send_log index, a count table and its triggers, 021 a table and a trigger), so the
      // migrator applies 004 and what follows in order.
      await pglite.exec(
        `DROP TABLE search_items; ALTER TABLE send_log DROP COLUMN failure;
         ALTER TABLE send_log DROP COLUMN handed_over_at; DROP TABLE paper_texts;
         DROP TABLE outbox; ALTER TABLE subscribers DROP COLUMN generation;
         DROP TABLE subscriber_preferences; DROP TABLE edition_translations; DROP TABLE edition_revisions;
         DROP TABLE link_clicks; DROP TABLE reader_clicks;
         ALTER TABLE send_log DROP CONSTRAINT send_log_pkey; ALTER TABLE send_log DROP COLUMN notice;
         ALTER TABLE send_log DROP COLUMN revision; ALTER TABLE send_log ADD PRIMARY KEY (edition_date, subscriber_id);
         CREATE INDEX send_log_pending ON send_log (edition_date, state, subscriber_id);
         ALTER TABLE subscribers DROP COLUMN complained_at;
         DROP TABLE site_generations; DROP TABLE rate_limit_buckets; DROP TABLE scheduled_runs; DROP TABLE scheduled_sends;
         DROP TABLE reader_status_events;
         ALTER TABLE subscribers DROP COLUMN IF EXISTS consent_by; ALTER TABLE subscribers DROP COLUMN IF EXISTS consent_at;
         DROP INDEX IF EXISTS send_log_due; DROP INDEX IF EXISTS send_log_first_mail;
         DROP INDEX IF EXISTS send_log_reader; DROP TABLE IF EXISTS send_log_sent;
         DROP FUNCTION IF EXISTS send_log_count_sent CASCADE;
         DROP TABLE reader_clicks_incoming; DROP FUNCTION reader_clicks_incoming_forget CASCADE;
         DELETE FROM kysely_migration WHERE name >= '004-search'`,
      );
      const after = await openStoreFromPglite(pglite, { closeDatabase: false });
      const hits = await after.search.items(query('goblins'));
      expect(hits.map((hit) => hit.editionDate)).toEqual(['2026-05-04', '2026-04-27']);
      expect(await after.search.items(query(DRAFT_WORD))).toEqual([]);
      // Migration 011 keeps every edition published before it as its revision 1.
      expect((await after.revisions.list('2026-05-04')).map((entry) => entry.revision)).toEqual([1]);
      expect((await after.revisions.get('2026-05-04', 1))?.title).toBe(
        (await after.editions.get('2026-05-04'))?.title,
      );
      await after.close();
    } finally {
      await pglite.close();
    }
  });
});
