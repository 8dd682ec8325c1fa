// A send scheduled a few seconds ahead, through the real `digest serve` and a loopback SMTP server: `digest send
// --at` (its store reached through the server that holds the PGlite folder) sets it, the server's scheduler sends
// it at its time, once per reader, and a `digest send` afterwards finds nobody left to mail.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { runDigest } from '../support/cli.js';
import { seedPgliteDataDir } from '../support/database.js';
import { addReaders, SECRET, seedEdition, sendConfigFile, WEEK } from '../support/send-digest.js';
import { type Served, startServe } from '../support/serve.js';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.js';

const READERS = ['ada@example.com', 'bo@example.com', 'cy@example.com'];

describe('a scheduled send through digest serve', () => {
  let cwd: string;
  let smtp: TestSmtpServer;
  let served: Served | null = null;
  const digest = (...args: string[]) => runDigest(args, { cwd, env: { DIGEST_SECRET: SECRET } });

  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), 'digest-scheduled-send-'));
    smtp = await startSmtpServer();
    await writeFile(join(cwd, 'digest.config.json'), JSON.stringify(sendConfigFile(smtp.port)));
    await seedPgliteDataDir(join(cwd, 'data'));
    const store = await openStore({ dataDir: join(cwd, 'data') });
    try {
      await seedEdition(store);
      await addReaders(store, READERS);
    } finally {
      await store.close();
    }
    served = await startServe({ cwd, site: join(cwd, 'site'), dataDir: join(cwd, 'data') });
  }, 120_000);
  afterAll(async () => {
    served?.child.kill('SIGTERM');
    await served?.exited;
    await smtp.close();
    await rm(cwd, { recursive: true, force: true });
  });

  it('goes out at its time, once per reader', async () => {
    const at = new Date(Date.now() + 4000);
    const set = await digest('send', '--week', WEEK, '--at', at.toISOString());
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain(`(UTC ${at.toISOString()})`);
    // Not before its time.
    expect(smtp.mails).toHaveLength(0);

    await vi.waitFor(() => expect(smtp.mails).toHaveLength(READERS.length), {
      timeout: 40_000,
      interval: 100,
    });
    const firstMailAt = Date.now();
    expect(firstMailAt).toBeGreaterThanOrEqual(at.getTime());
    expect([...smtp.counts.entries()].sort()).toEqual(READERS.map((address) => [address, 1]));
    await vi.waitFor(() => expect(served!.stderr()).toMatch(/scheduled send: 2026-05-04 sent to 3 reader/), {
      timeout: 10_000,
      interval: 100,
    });

    const again = await digest('send', '--week', WEEK);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/sent\s+3\s+0 in this run/);
    expect(smtp.mails).toHaveLength(READERS.length);
    // Nothing waits any more: the cancel finds none.
    expect((await digest('send', '--cancel', '--week', WEEK)).code).toBe(1);
  }, 90_000);
});
