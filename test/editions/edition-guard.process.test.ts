// A week mailed but never published is frozen too: `digest build` (the real process) refuses it with exit 2.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Edition } from '../../src/core/types.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/types.js';
import { WEEK } from '../desk/_desk.js';
import { runDigest } from '../support/cli.js';
import { seedPgliteDataDir } from '../support/database.js';
import { referenceEdition } from '../support/reference-edition.js';

describe('the edition guard on a week mailed but never published', () => {
  let cwd: string;
  let store: Store;
  let edition: Edition;

  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), 'digest-mailed-unpublished-'));
    await seedPgliteDataDir(join(cwd, 'data'));
    store = await openStore({ dataDir: join(cwd, 'data') });
    edition = referenceEdition();
    await store.editions.save(edition);
    // A mail of it went out (an operator published, sent, and the publication was lost): the send log says so.
    await store.subscribers.put('ada@example.com', 'ada@example.com', 'confirmed');
    await store.sendLog.enqueue(WEEK);
    const row = { edition: WEEK, subscriberId: 0, worker: 'a-sender' };
    const [id] = await store.sendLog.reserveBatch({ ...row, limit: 1, deadClaimers: [], leaseSeconds: 60 });
    await store.sendLog.start({ ...row, subscriberId: id! });
    await store.sendLog.recordSent(
      { ...row, subscriberId: id! },
      { smtpResponse: '250 OK', messageId: '<m>' },
    );
    await store.close();
  }, 60_000);
  afterAll(async () => {
    await rm(cwd, { recursive: true, force: true });
  });

  it('is frozen: digest build refuses with exit 2 naming the correction, and the stored edition is unchanged', async () => {
    for (const flags of [['--offline'], ['--offline', '--refresh']]) {
      const run = await runDigest(['build', '--week', WEEK, ...flags, '--data-dir', 'data'], { cwd });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain('mailed to 1 reader(s)');
      expect(run.stderr).not.toContain('already published');
      expect(run.stderr).toContain(`digest correct --week ${WEEK} --reason`);
    }
    const after = await openStore({ dataDir: join(cwd, 'data') });
    try {
      const stored = await after.editions.get(WEEK);
      expect(stored?.publishedAt ?? null).toBeNull();
      expect(stored?.items).toEqual(edition.items);
    } finally {
      await after.close();
    }
  });
});
