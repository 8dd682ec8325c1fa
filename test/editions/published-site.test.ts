// The published site written again from the store alone, as an instance that did not publish writes it: into an
// empty folder, the same files with the same bytes as the folder that two publishes and a correction wrote in turn
// (every week's mail files too, which the publishing folder carried over from one publish to the next); a folder
// that holds an older generation catches up by writing only what changed since. Each publish and correction adds a
// site generation; nothing is written before the first.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.js';
import { silentLogger } from '../../src/core/ports.js';
import * as editions from '../../src/editions/index.js';
import { offlineHttpClient } from '../../src/net/http-client.js';
import { nodeFileSystem } from '../../src/publish/write-site.js';
import type { Store } from '../../src/store/types.js';
import { createTestStore } from '../support/database.js';
import { referenceEdition } from '../support/reference-edition.js';
import { filesOf } from '../support/site-tree.js';

describe('writePublishedSite', () => {
  let store: Store;
  let dir: string;
  const deps = () => ({
    config: parseConfig({ publish: { baseUrl: 'https://digest.example/' }, enrich: { enabled: false } }),
    store,
    http: offlineHttpClient,
    clock: { now: () => new Date('2026-05-12T09:00:00Z') },
    log: silentLogger,
    fs: nodeFileSystem,
    env: {},
  });

  beforeEach(async () => {
    store = await createTestStore();
    dir = await mkdtemp(join(tmpdir(), 'digest-published-site-'));
  });
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('writes nothing before the first publish', async () => {
    expect(await editions.writePublishedSite(deps(), { outDir: join(dir, 'copy') })).toEqual({
      generation: null,
      files: 0,
    });
    expect(await readdir(dir)).toEqual([]);
  });

  it('writes, from the store alone, the bytes the publishing folder holds', async () => {
    const first = referenceEdition();
    const second = { ...referenceEdition(), date: '2026-05-11', title: 'The week after' };
    for (const edition of [first, second]) await store.editions.save(edition);
    const published = join(dir, 'published');
    await editions.publish(deps(), { week: first.date, outDir: published, chat: false });
    await editions.publish(deps(), { week: second.date, outDir: published, chat: false });
    const copy = join(dir, 'copy');
    expect(await editions.writePublishedSite(deps(), { outDir: copy })).toMatchObject({ generation: 2 });
    expect(await filesOf(copy)).toEqual(await filesOf(published));

    const draft = await editions.correctionDraft(deps(), first.date);
    draft.title = 'Agents in Production (corrected)';
    await editions.correct(deps(), {
      week: first.date,
      reason: 'The title',
      editor: 'ed@example.org',
      corrected: draft,
      outDir: published,
    });
    expect(await store.siteGenerations.current()).toEqual({ generation: 3, week: first.date });
    expect(await store.siteGenerations.weeksAfter(2)).toEqual([first.date]);
    expect(await store.siteGenerations.weeksAfter(0)).toBeNull();

    // The folder that holds generation 2 catches up (the corrected week's mail files written, the rest carried
    // over); a new folder gets every week's.
    expect(await editions.writePublishedSite(deps(), { outDir: copy, after: 2 })).toMatchObject({
      generation: 3,
    });
    const fresh = join(dir, 'fresh');
    await editions.writePublishedSite(deps(), { outDir: fresh });
    const expected = await filesOf(published);
    expect([...expected.keys()]).toEqual(
      expect.arrayContaining([
        `${second.date}/email.html`,
        `${first.date}/email.html`,
        `${first.date}-r1/index.html`,
      ]),
    );
    expect(await filesOf(fresh)).toEqual(expected);
    expect(await filesOf(copy)).toEqual(expected);
  });
});
