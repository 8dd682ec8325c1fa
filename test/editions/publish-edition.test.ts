// Publishing writes the live site all at once: a publish of an unchanged edition leaves every byte as it was (the
// subscribe slot included), and a correction whose publish fails halfway (the disk refuses a write) leaves the
// previous revision live, whole, until a rerun puts the new one live.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileSystem } from '../../src/core/ports.js';
import { publishEdition } from '../../src/editions/publish-edition.js';
import { SUBSCRIBE_SLOT } from '../../src/publish/_layout.js';
import { swapFolders } from '../../src/publish/site-swap.js';
import { nodeFileSystem } from '../../src/publish/write-site.js';
import type { Store } from '../../src/store/types.js';
import { createDeskHarness, type DeskHarness, EDITOR, WEEK } from '../desk/_desk.js';
import { createTestStore } from '../support/database.js';
import { filesOf } from '../support/site-tree.js';

/** The real disk, until the `failAt`-th write: that one fails as a full disk would. */
function diskFullAt(failAt: number): FileSystem & { writes: number } {
  const fs = {
    writes: 0,
    async writeFile(path: string, data: string | Uint8Array) {
      fs.writes += 1;
      if (fs.writes === failAt) throw new Error(`ENOSPC: no space left on device, write '${path}'`);
      await nodeFileSystem.writeFile(path, data);
    },
    mkdir: nodeFileSystem.mkdir,
  };
  return fs;
}

describe('publishing the live site', () => {
  let store: Store;
  let harness: DeskHarness;
  const publishInto = (fs: FileSystem) =>
    publishEdition({
      store,
      fs,
      outDir: harness.siteDir,
      date: WEEK,
      now: new Date('2026-05-05T10:00:00Z'),
      site: { baseUrl: 'https://digest.example/', siteName: 'Test Digest' },
      email: {
        from: 'Test Digest <digest@example.org>',
        to: [],
        unsubscribeUrl: 'https://digest.example/unsubscribe',
      },
    });

  beforeAll(async () => {
    store = await createTestStore();
    harness = await createDeskHarness(store);
    await harness.digest.publish({ week: WEEK, outDir: harness.siteDir, chat: false, allowFlagged: true });
  }, 60_000);
  afterAll(async () => {
    await harness?.close();
    await store?.close();
  });

  it('a publish of the unchanged edition leaves every file byte-identical, the subscribe slot included', async () => {
    const before = await filesOf(harness.siteDir);
    const page = await readFile(join(harness.siteDir, WEEK, 'index.html'), 'utf8');
    expect(page).toMatch(SUBSCRIBE_SLOT);
    await harness.digest.publish({ week: WEEK, outDir: harness.siteDir, chat: false });
    expect(await filesOf(harness.siteDir)).toEqual(before);
  });

  it('a correction whose publish fails halfway leaves revision 1 live, whole; a rerun puts revision 2 live', async () => {
    const before = await filesOf(harness.siteDir);
    const current = (await store.editions.get(WEEK))!;
    const at = '2026-05-06T09:00:00.000Z';
    const reason = 'The benchmark figure in item 1 was wrong';
    const corrected = {
      ...current,
      title: 'A corrected title',
      corrections: [{ revision: 2, at, reason, editor: EDITOR.email }],
    };
    await store.revisions.publishCorrection({
      edition: corrected,
      revision: 2,
      editor: EDITOR.email,
      reason,
      at,
    });
    const failing = diskFullAt(6);
    await expect(publishInto(failing)).rejects.toThrow(/ENOSPC/);
    expect(failing.writes).toBe(6);
    // Not one page of revision 2 reached readers, and the half-written copy is gone.
    expect(await filesOf(harness.siteDir)).toEqual(before);
    expect(existsSync(swapFolders(harness.siteDir).staging)).toBe(false);

    const rerun = await publishInto(nodeFileSystem);
    expect(rerun.files).toContain(join(harness.siteDir, WEEK, 'index.html'));
    const live = await readFile(join(harness.siteDir, WEEK, 'index.html'), 'utf8');
    expect(live).toContain('A corrected title');
    expect(live).toContain('Corrected on');
    expect(await readFile(join(harness.siteDir, `${WEEK}-r1`, 'index.html'), 'utf8')).toContain(
      current.title,
    );
    expect(await readFile(join(harness.siteDir, 'feed.xml'), 'utf8')).toContain('A corrected title');
  });
});
