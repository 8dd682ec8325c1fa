// `digest subscribers …` and `digest send` through the real CLI (in-process), on a PGlite folder and a loopback
// SMTP server: a CSV round trip with bad lines, removal, exit statuses, --dry-run, and the --allow-flagged rule.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { runDigest } from '../support/cli.js';
import { seedPgliteDataDir } from '../support/database.js';
import { referenceEdition } from '../support/reference-edition.js';
import { SECRET, seedEdition, sendConfigFile, WEEK } from '../support/send-digest.js';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.js';

describe('digest subscribers and digest send (CLI)', () => {
  let cwd: string;
  let smtp: TestSmtpServer;
  const digest = (...args: string[]) => runDigest(args, { cwd, env: { DIGEST_SECRET: SECRET } });

  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), 'digest-send-cli-'));
    smtp = await startSmtpServer();
    await writeFile(join(cwd, 'digest.config.json'), JSON.stringify(sendConfigFile(smtp.port)));
    await seedPgliteDataDir(join(cwd, 'data'));
    const store = await openStore({ dataDir: join(cwd, 'data') });
    await seedEdition(store, (edition) => {
      edition.items[0]!.checks = { status: 'flagged', flagged: true, claims: [], notes: [] };
    }).finally(() => store.close());
  }, 60_000);
  afterAll(async () => {
    await smtp.close();
    await rm(cwd, { recursive: true, force: true });
  });

  it('imports a CSV (bad lines reported by number), lists, exports, adds and removes', async () => {
    await writeFile(
      join(cwd, 'readers.csv'),
      [
        '\uFEFFname,Email',
        'Ada,Ada@Example.COM',
        '"Hopper, Grace",grace@example.org',
        'Nobody,not-an-address',
        'Eve,"eve@example.org\nBcc: mallory@example.net"',
        'Ada again,ada@example.com',
        '',
        'Linus,linus+news@example.net',
      ].join('\r\n'),
    );
    const imported = await digest('subscribers', 'import', 'readers.csv', '--confirmed');
    expect(imported.code).toBe(3);
    expect(imported.stdout).toMatch(
      /3 added as confirmed \(consent asserted by cli:[^)]+\), 0 pending confirmed, 0 already subscribed, 0 already unsubscribed or bounced \(left so\), 1 duplicate\(s\), 2 invalid line\(s\)/,
    );
    const ada = JSON.parse((await digest('subscribers', 'export', 'ada@example.com')).stdout);
    expect(ada.subscriber).toMatchObject({ status: 'confirmed', consentBy: expect.stringMatching(/^cli:/) });
    expect(ada.subscriber.consentAt).not.toBeNull();
    expect(imported.stderr).toMatch(/^line 4: skipped "not-an-address": expected an address/m);
    expect(imported.stderr).toMatch(/^line 5: skipped .*line breaks/m);

    const listed = await digest('subscribers', 'list', '--status', 'confirmed');
    expect(listed.code).toBe(0);
    expect(
      listed.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split('\t')[0]),
    ).toEqual(['ada@example.com', 'grace@example.org', 'linus+news@example.net']);
    const json = await digest('subscribers', 'list', '--json');
    expect(JSON.parse(json.stdout.split('\n')[0]!)).toMatchObject({
      address: 'ada@example.com',
      status: 'confirmed',
    });

    // Without --confirmed, the reader waits for their confirmation mail, queued in the outbox for `digest serve`.
    expect((await digest('subscribers', 'add', 'pending@example.com')).stdout).toBe(
      'added pending@example.com (pending, confirmation mail queued)\n',
    );
    const injected = await digest('subscribers', 'add', 'x@example.com\r\nBcc: y@example.com');
    expect(injected.code).toBe(2);
    expect(injected.stderr).toMatch(/email: .*line breaks/);
    expect((await digest('subscribers', 'list', '--status', 'nope')).code).toBe(2);

    const exported = await digest('subscribers', 'export');
    expect(exported.stdout.split('\n')[0]).toBe('email,status,created_at,confirmed_at');
    expect(exported.stdout.split('\n').filter(Boolean)).toHaveLength(5);
    // The export imports back unchanged.
    await writeFile(join(cwd, 'export.csv'), exported.stdout);
    const again = await digest('subscribers', 'import', 'export.csv');
    expect(again.stdout).toMatch(
      /0 added and sent a confirmation mail, 0 confirmation mail\(s\) queued, 4 already subscribed, 0 already unsubscribed/,
    );

    const removed = await digest('subscribers', 'remove', 'Pending@Example.com');
    expect(removed).toMatchObject({ code: 0, stdout: 'removed pending@example.com\n' });
    expect((await digest('subscribers', 'remove', 'pending@example.com')).code).toBe(2);
    expect((await digest('subscribers', 'export')).stdout).not.toContain('pending@example.com');
  });

  it('send refuses a flagged edition (exit 3), --dry-run sends nothing, --allow-flagged sends (exit 0)', async () => {
    const refused = await digest('send', '--week', WEEK);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/was not sent: .*--allow-flagged/s);
    expect(smtp.mails).toHaveLength(0);

    const dry = await digest('send', '--week', WEEK, '--dry-run', '--allow-flagged');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toBe('ada@example.com\ngrace@example.org\nlinus+news@example.net\n');
    expect(smtp.mails).toHaveLength(0);

    const sent = await digest('send', '--week', WEEK, '--allow-flagged');
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout).toMatch(/sent\s+3\s+3 in this run/);
    expect(smtp.mails).toHaveLength(3);
    expect(sent.stderr).toMatch(/^send: 100% 3\/3 · sent 3$/m);

    // Removing a reader deletes their send-log rows too.
    await digest('subscribers', 'remove', 'grace@example.org');
    const rerun = await digest('send', '--week', WEEK, '--allow-flagged');
    expect(rerun.stdout).toMatch(/sent\s+2\s/);
    expect(smtp.mails).toHaveLength(3);
  });

  it('publish refuses a flagged edition unless --allow-flagged', async () => {
    const store = await openStore({ dataDir: join(cwd, 'data') });
    const draft = { ...referenceEdition(), date: '2026-05-11' };
    draft.items[2]!.checks = { status: 'fallback', flagged: true, notes: [] };
    await store.editions.save(draft).finally(() => store.close());
    const args = ['publish', '--week', '2026-05-11', '--base-url', 'https://digest.example.org/'];
    const refused = await digest(...args);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/1 item\(s\) fell back to the extractive writer/);
    const allowed = await digest(...args, '--allow-flagged');
    expect(allowed.code, allowed.stderr).toBe(0);
  });
});
