// Store contract: the revisions of a published edition. A correction is one transaction that keeps the revision
// readers had (recorded as revision 1 when it was published before revisions were kept) and makes the next one
// live; a correction racing another finds its revision taken and changes nothing. Runs on both databases.
import { describe, expect, it } from 'vitest';
import { StoreError } from '../../src/core/errors.js';
import type { Edition } from '../../src/core/types.js';
import { storeDatabases, useTestStore } from '../support/database.js';

const DATE = '2026-05-04';
const PUBLISHED_AT = '2026-05-04T07:00:00.000Z';
const CORRECTED_AT = '2026-05-06T10:00:00.000Z';

for (const { kind, skip } of storeDatabases()) {
  describe.skipIf(skip !== null)(`revisions on ${kind}`, () => {
    const store = useTestStore(kind);

    it('keeps revision 1 whole and makes revision 2 live, with who, when and why', async () => {
      await store().editions.save(edition('Benchmarks and Evaluation'));
      await store().editions.markPublished(DATE, PUBLISHED_AT);
      expect(await store().revisions.list(DATE)).toEqual([]);
      const corrected = {
        ...edition('Benchmarks and Evaluation, corrected'),
        corrections: [{ revision: 2, at: CORRECTED_AT, reason: 'A wrong number', editor: 'ed@example.com' }],
      };
      await store().revisions.publishCorrection({
        edition: corrected,
        revision: 2,
        editor: 'ed@example.com',
        reason: 'A wrong number',
        at: CORRECTED_AT,
      });
      expect(await store().revisions.list(DATE)).toEqual([
        { revision: 1, publishedAt: PUBLISHED_AT, editor: null, reason: null },
        { revision: 2, publishedAt: CORRECTED_AT, editor: 'ed@example.com', reason: 'A wrong number' },
      ]);
      expect((await store().revisions.get(DATE, 1))?.title).toBe('Benchmarks and Evaluation');
      expect(await store().revisions.get(DATE, 3)).toBeNull();
      const live = await store().editions.get(DATE);
      expect(live?.title).toBe('Benchmarks and Evaluation, corrected');
      // The edition keeps its first publication; the correction's time is in its list.
      expect(live?.publishedAt).toBe(PUBLISHED_AT);
      expect(live?.corrections).toEqual(corrected.corrections);
    });

    it('refuses a correction whose revision is taken, changing nothing', async () => {
      await store().editions.save(edition('Original'));
      await store().editions.markPublished(DATE, PUBLISHED_AT);
      const input = (title: string) => ({
        edition: { ...edition(title), corrections: [] },
        revision: 2,
        editor: 'ed@example.com',
        reason: 'Typo',
        at: CORRECTED_AT,
      });
      await store().revisions.publishCorrection(input('First correction'));
      await expect(store().revisions.publishCorrection(input('Second correction'))).rejects.toThrow(
        StoreError,
      );
      expect((await store().editions.get(DATE))?.title).toBe('First correction');
      expect((await store().revisions.list(DATE)).map((entry) => entry.revision)).toEqual([1, 2]);
    });
  });
}

function edition(title: string): Edition {
  return {
    date: DATE,
    name: 'LLM News Digest',
    title,
    intro: 'What happened this week.',
    writer: 'extractive',
    sources: [],
    items: [
      {
        key: 'arxiv:2605.10000',
        title: 'A paper',
        url: 'https://arxiv.org/abs/2605.10000',
        level: 'Intermediate',
        authors: ['Ada Lovelace'],
        summary: 'A summary.',
        takeaways: ['One.', 'Two.', 'Three.'],
        source: 'api-hf',
        sources: ['api-hf'],
        arxivId: '2605.10000',
        citations: null,
        image: null,
        publishedAt: '2026-05-01T00:00:00.000Z',
        writer: 'extractive',
      },
    ],
  };
}
