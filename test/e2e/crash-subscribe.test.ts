// SIGKILL in the middle of a burst of subscribes, against the real `digest serve` process and a real SMTP
// server on loopback: every request answered 200 is stored, and after a restart every stored reader gets exactly one
// confirmation mail — none lost (the outbox row was written with the request), none twice (a mail is finished only
// after its row records the hand-over; one killed after that is "uncertain" and not sent again).
// Needs `npm run build` (bin/digest.js runs dist/).
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { runDigest } from '../support/cli.js';
import { type Served, startServe } from '../support/serve.js';
import { type LoopbackSmtp, startSmtp } from '../support/smtp-inbox.js';
import { eventually, httpRequest } from './_http.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BASE = 'https://digest.example.org/';
const BURST = 400;

describe('SIGKILL during a burst of subscribes (real process, loopback)', () => {
  let cwd: string;
  let smtp: LoopbackSmtp;
  let served: Served | undefined;

  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) {
      throw new Error('dist/ is not built: run "npm run build" first');
    }
    cwd = await mkdtemp(join(tmpdir(), 'digest-crash-subscribe-'));
    smtp = await startSmtp();
    await writeFile(
      join(cwd, 'digest.config.json'),
      JSON.stringify({
        server: {
          baseUrl: BASE,
          subscribePerMinute: 100_000,
          // A mail a killed worker left mid-way is taken over after a second (default five minutes).
          outbox: {
            retryDelayMs: 100,
            maxRetryDelayMs: 400,
            pollMs: 50,
            leaseSeconds: 1,
            messagesPerSecond: 10_000,
          },
        },
        publish: {
          baseUrl: BASE,
          email: {
            smtp: { host: '127.0.0.1', port: smtp.port, requireTls: false },
            send: { timeoutMs: 2_000 },
          },
        },
      }),
    );
  }, 60_000);

  afterAll(async () => {
    const child = served?.child;
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await smtp?.close();
    if (cwd) await rm(cwd, { recursive: true, force: true });
  });

  it('loses no answered request and sends no confirmation twice', async () => {
    served = await startServe({ cwd, site: 'site', dataDir: 'data' });
    const first = served;
    const agent = new Agent({ keepAlive: true, maxSockets: 20 });
    const answered: string[] = [];
    const subscribe = async (index: number) => {
      const email = `reader${index}@example.org`;
      const answer = await httpRequest(new URL('subscribe', first.url), {
        agent,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          origin: BASE.slice(0, -1),
        },
        body: JSON.stringify({ email }),
      }).catch(() => null);
      if (answer?.status === 200) answered.push(email);
      // Killed once a quarter of the burst is answered: later requests are in flight, being stored or mailed.
      if (answered.length === BURST / 4 && first.child.exitCode === null) first.child.kill('SIGKILL');
    };
    let next = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < BURST) await subscribe(next++);
      }),
    );
    agent.destroy();
    expect((await first.exited).signal).toBe('SIGKILL');
    expect(answered.length).toBeGreaterThanOrEqual(BURST / 4);
    expect(answered.length).toBeLessThan(BURST);

    // The next run takes the folder over and delivers what the killed one left in the outbox.
    served = await startServe({ cwd, site: 'site', dataDir: 'data' });
    const mailed = () => new Set(smtp.received.map((mail) => mail.to[0]!));
    const listed = await eventually(
      'every stored reader mailed (or their mail recorded uncertain)',
      async () => {
        const run = await runDigest(['subscribers', 'list', '--json', '--data-dir', 'data'], { cwd });
        if (run.code !== 0) return undefined;
        const rows = run.stdout
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as { address: string; mail?: { state: string } });
        const done = rows.every((row) => mailed().has(row.address) || row.mail?.state === 'uncertain');
        return done ? rows : undefined;
      },
      90_000,
    );
    served.child.kill('SIGTERM');
    expect((await served.exited).code).toBe(0);

    // Every answered request is stored.
    const stored = new Set(listed.map((row) => row.address));
    expect(answered.filter((email) => !stored.has(email))).toEqual([]);
    // No reader got two confirmation mails.
    const counts = new Map<string, number>();
    for (const mail of smtp.received) counts.set(mail.to[0]!, (counts.get(mail.to[0]!) ?? 0) + 1);
    expect([...counts].filter(([, count]) => count > 1)).toEqual([]);
    // At most the mails in flight at the kill are uncertain (two SMTP connections; such a mail may or may not have
    // arrived); every other stored reader's mail arrived.
    const uncertain = listed.filter((row) => row.mail?.state === 'uncertain');
    expect(uncertain.length).toBeLessThanOrEqual(2);
    expect(listed.filter((row) => !mailed().has(row.address) && row.mail?.state !== 'uncertain')).toEqual([]);
    expect([...mailed()].filter((address) => !stored.has(address))).toEqual([]);
    // And the store agrees once the server is gone.
    const store = await openStore({ dataDir: join(cwd, 'data') });
    try {
      expect((await store.outbox.health()).waiting).toBe(0);
      const pending = (await store.subscribers.count()).pending;
      expect(pending).toBe(stored.size);
    } finally {
      await store.close();
    }
  }, 180_000);
});
