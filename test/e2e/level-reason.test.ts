// The level's one-line reason is kept in the store with the edition, and shown nowhere.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.js';
import { silentLogger } from '../../src/core/ports.js';
import { buildEdition } from '../../src/editions/build-edition.js';
import { renderEditionHtml } from '../../src/publish/edition-html.js';
import { renderEditionJson } from '../../src/publish/edition-json.js';
import { createExtractiveWriter } from '../../src/write/extractive.js';
import { withTestStore } from '../support/database.js';

describe('level reasons', () => {
  it('are stored with the edition but not rendered', async () => {
    await withTestStore(async (store) => {
      await store.items.upsert([
        {
          sourceId: 'rss-test',
          url: 'https://example.com/post-1',
          title: 'How we evaluate agents in production',
          text: 'We describe how our team evaluates tool-using agents before each release. The evaluation suite runs every night on real traffic samples. Regressions block the release until a person has looked at them. The post lists the five checks that caught most problems.',
          authors: ['A. Writer'],
          arxivId: null,
          image: null,
          publishedAt: '2026-06-20T10:00:00.000Z',
          upvotes: null,
        },
      ]);
      const { edition } = await buildEdition({
        date: '2026-06-22',
        config: parseConfig({}),
        store,
        ports: { writer: createExtractiveWriter(), log: silentLogger },
      });
      const stored = await store.editions.get('2026-06-22');
      const reason = stored?.items[0]?.levelReason;
      expect(reason).toBeTruthy();
      expect(reason).toBe(edition.items[0]?.levelReason);
      expect(renderEditionJson(edition)).not.toContain(reason!);
      expect(renderEditionHtml(edition)).not.toContain(reason!);
    });
  });
});
