// Store contract: papers read in full (migration 008), one record per arXiv id and version. Runs on both databases.
import { describe, expect, it } from 'vitest';
import type { PaperRecord } from '../../src/core/ports.js';
import type { PaperText } from '../../src/core/types.js';
import { storeDatabases, useTestStore } from '../support/database.js';

const paper = (version: number): PaperText => ({
  arxivId: '2310.06825',
  version,
  url: `https://arxiv.org/html/2310.06825v${version}`,
  title: 'Mistral 7B',
  sections: [
    {
      id: 'abstract',
      number: null,
      title: 'Abstract',
      kind: 'abstract',
      text: 'We introduce \u0000Mistral 7B.',
      captions: [],
    },
    {
      id: 'S3',
      number: '3',
      title: 'Results',
      kind: 'section',
      text: 'It wins.',
      captions: ['Table 2: results.'],
    },
  ],
  links: [
    {
      url: 'https://github.com/mistralai/mistral-src',
      context: 'Code: https://github.com/mistralai/mistral-src',
    },
  ],
});

const record = (version: number | null, status: 'read' | 'none', fetchedAt: string): PaperRecord => ({
  arxivId: '2310.06825',
  version,
  status,
  url: `https://arxiv.org/html/2310.06825${version ? `v${version}` : ''}`,
  note: status === 'none' ? 'arXiv has no HTML rendering of this paper' : null,
  paper: status === 'read' && version ? paper(version) : null,
  fetchedAt,
});

for (const { kind, skip } of storeDatabases()) {
  describe.skipIf(skip !== null)(`paper texts on ${kind}`, () => {
    const store = useTestStore(kind);

    it('keeps one record per version and answers the highest, sections intact', async () => {
      expect(await store().paperTexts.latest(['2310.06825'])).toEqual(new Map());
      await store().paperTexts.save(record(1, 'read', '2026-05-01T10:00:00.000Z'));
      await store().paperTexts.save(record(2, 'read', '2026-05-02T10:00:00.000Z'));
      const found = (await store().paperTexts.latest(['2310.06825', '2508.08468'])).get('2310.06825');
      expect(found).toMatchObject({ version: 2, status: 'read', fetchedAt: '2026-05-02T10:00:00.000Z' });
      expect(found?.paper?.sections[1]).toEqual(paper(2).sections[1]);
      // NUL cannot be stored: it is dropped, the rest kept.
      expect(found?.paper?.sections[0]?.text).toBe('We introduce Mistral 7B.');
      expect((await store().paperTexts.latest(['2508.08468'])).size).toBe(0);
    });

    it('replaces the record of the same version, and keeps "no rendering" without a version', async () => {
      await store().paperTexts.save(record(null, 'none', '2026-05-01T10:00:00.000Z'));
      await store().paperTexts.save(record(null, 'none', '2026-05-05T10:00:00.000Z'));
      const found = (await store().paperTexts.latest(['2310.06825'])).get('2310.06825');
      expect(found).toMatchObject({
        version: null,
        status: 'none',
        fetchedAt: '2026-05-05T10:00:00.000Z',
        paper: null,
      });
      expect(found?.note).toBe('arXiv has no HTML rendering of this paper');
    });
  });
}
