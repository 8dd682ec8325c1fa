// The one build orchestrator over a real store (PGlite) and the extractive writer: the stages run in the edition's
// order (ingest → enrich → select with triage → write → save → translate), their warnings are gathered in that
// order, translation gets the edition already saved, and an aborted build stops before writing and saves nothing.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.js';
import { silentLogger } from '../../src/core/ports.js';
import type { SourceItem, SourceReport } from '../../src/core/types.js';
import { type BuildStages, buildEdition } from '../../src/editions/build-edition.js';
import type { Store } from '../../src/store/types.js';
import { createExtractiveWriter } from '../../src/write/extractive.js';
import type { Writer } from '../../src/write/types.js';
import { withTestStore } from '../support/database.js';

const WEEK = '2026-06-22';

function post(slug: string, title: string): SourceItem {
  return {
    sourceId: 'rss-test',
    url: `https://example.com/${slug}`,
    title,
    text: `${title}. The post explains how the team measured it and what changed in production afterwards. It lists the checks that caught most problems before each release.`,
    authors: ['A. Writer'],
    arxivId: null,
    image: null,
    publishedAt: '2026-06-20T10:00:00.000Z',
    upvotes: null,
  };
}

/** The extractive writer, noting each call in `events`. */
function notingWriter(events: string[]): Writer {
  const writer = createExtractiveWriter();
  return {
    name: writer.name,
    writeItems: (items, context) => {
      events.push('writeItems');
      return writer.writeItems(items, context);
    },
    writeEdition: (items, context) => {
      events.push('writeEdition');
      return writer.writeEdition(items, context);
    },
  };
}

function stages(store: Store, events: string[], report: SourceReport): BuildStages {
  return {
    ingest: async () => {
      events.push('ingest');
      return [report];
    },
    enrich: async (items) => {
      events.push('enrich');
      return { items, warnings: ['enrich: one page did not load'] };
    },
    triage: async (items) => {
      events.push('triage');
      return new Map(items.map((item) => [item.key, 5]));
    },
    translate: async (edition) => {
      const saved = await store.editions.get(edition.date);
      events.push(`translate (saved: ${saved?.title === edition.title})`);
      return ['translate: one sentence kept in English'];
    },
  };
}

describe('the build orchestrator', () => {
  it('runs the stages in the edition’s order and gathers their warnings in that order', async () => {
    await withTestStore(async (store) => {
      await store.items.upsert([
        post('evals', 'How we evaluate agents'),
        post('caching', 'Prompt caching at scale'),
      ]);
      const events: string[] = [];
      const report: SourceReport = {
        id: 'rss-test',
        status: 'ok',
        items: 2,
        warnings: ['one entry had no date'],
      };
      const { edition, warnings } = await buildEdition({
        date: WEEK,
        config: parseConfig({}),
        store,
        ports: { writer: notingWriter(events), log: silentLogger },
        stages: stages(store, events, report),
        progress: { onStage: (stage) => events.push(`› ${stage}`) },
      });
      expect(events).toEqual([
        '› ingest',
        'ingest',
        '› enrich',
        'enrich',
        '› select',
        'triage',
        '› write',
        'writeItems',
        'writeEdition',
        '› save',
        'translate (saved: true)',
      ]);
      expect(warnings).toEqual([
        'rss-test: one entry had no date',
        'enrich: one page did not load',
        'translate: one sentence kept in English',
      ]);
      expect(edition.sources).toEqual([report]);
      expect((await store.editions.get(WEEK))?.items.map((item) => item.key)).toEqual(
        edition.items.map((item) => item.key),
      );
    });
  });

  it('stops an aborted build before writing, and saves nothing', async () => {
    await withTestStore(async (store) => {
      await store.items.upsert([post('evals', 'How we evaluate agents')]);
      const events: string[] = [];
      const controller = new AbortController();
      const build = buildEdition({
        date: WEEK,
        config: parseConfig({}),
        store,
        ports: { writer: notingWriter(events), log: silentLogger },
        stages: {
          triage: async (items) => {
            controller.abort(new Error('stopped by the test'));
            return new Map(items.map((item) => [item.key, 5]));
          },
        },
        signal: controller.signal,
      });
      await expect(build).rejects.toThrow('stopped by the test');
      expect(events).toEqual([]);
      expect(await store.editions.get(WEEK)).toBeNull();
    });
  });
});
