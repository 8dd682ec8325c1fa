// A rebuild that would change nothing keeps the stored edition (its page written again); any write to the store,
// --refresh, or another config builds it anew.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildInput } from '../../src/editions/index.js';
import type { Store } from '../../src/store/types.js';
import { createDeskHarness, type DeskHarness, WEEK } from '../desk/_desk.js';
import { createTestStore } from '../support/database.js';

describe('a rebuild of an unchanged week', () => {
  let store: Store;
  let harness: DeskHarness;
  let input: BuildInput;
  let outDir: string;

  beforeAll(async () => {
    store = await createTestStore();
    harness = await createDeskHarness(store, { build: false });
    outDir = await mkdtemp(join(tmpdir(), 'build-inputs-'));
    input = {
      week: WEEK,
      outDir,
      ingest: false,
      enrich: false,
      offline: true,
      check: false,
      refresh: false,
    };
  }, 60_000);
  afterAll(async () => {
    await harness?.close();
    await store?.close();
    if (outDir) await rm(outDir, { recursive: true, force: true });
  });

  it('keeps the stored edition and writes its page again', async () => {
    const first = await harness.digest.build(input);
    expect(first.result).not.toBeNull();
    await rm(join(outDir, WEEK), { recursive: true, force: true });
    const again = await harness.digest.build(input);
    expect(again.result).toBeNull();
    expect(again.edition).toEqual(await store.editions.get(WEEK));
    expect(await readFile(again.pagePath, 'utf8')).toContain(first.edition.title);
  });

  it('builds anew after any write to the store: an editor skipping an item', async () => {
    await harness.digest.build(input);
    const dropped = (await store.editions.get(WEEK))!.items[0]!.key;
    await store.decisions.set({ week: WEEK, itemKey: dropped, decision: 'skip', by: 'test' });
    const rebuilt = await harness.digest.build(input);
    expect(rebuilt.result).not.toBeNull();
    expect(rebuilt.edition.items.map((item) => item.key)).not.toContain(dropped);
  });

  it('builds anew when asked for new text (--refresh) or with other flags', async () => {
    await harness.digest.build(input);
    expect((await harness.digest.build(input)).result).toBeNull();
    expect((await harness.digest.build({ ...input, refresh: true })).result).not.toBeNull();
    expect((await harness.digest.build({ ...input, check: true })).result).not.toBeNull();
    expect((await harness.digest.build({ ...input, check: true })).result).toBeNull();
  });
});
