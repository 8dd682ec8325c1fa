// Plain `digest send`, as the README's cron line and the first hour type it: the newest published edition unless it
// has been sent (said either way); no published edition, or no edition for --week, is exit 1 (docs/exit-status.md).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDigest } from '../support/cli.js';
import { type LoopbackSmtp, startSmtp } from '../support/smtp-inbox.js';

describe('plain digest send after the service path (init, demo, publish)', () => {
  let cwd: string;
  let smtp: LoopbackSmtp;
  const digest = (...args: string[]) => runDigest(args, { cwd, env: { DIGEST_CONFIG_JSON: '' } });

  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'digest-plain-send-'));
    smtp = await startSmtp();
    const init = await digest('init', '--yes', '--smtp', `127.0.0.1:${smtp.port}`);
    expect(init.code, init.stderr).toBe(0);
  }, 60_000);
  afterAll(async () => {
    await smtp.close();
    rmSync(cwd, { recursive: true, force: true });
  });

  it('before any edition: exit 1, saying what to do first', async () => {
    const run = await digest('send');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/No published edition to send: build one .*then \.\/digest publish/);
    const week = await digest('send', '--week', '2026-11-23');
    expect(week.code).toBe(1);
    expect(week.stderr).toMatch(/No edition for 2026-11-23: build it first/);
  });

  it('mails the demo edition once published, then says all is sent', async () => {
    expect((await digest('demo')).code).toBe(0);
    const unpublished = await digest('send');
    expect(unpublished.code).toBe(1);
    expect(unpublished.stderr).toMatch(/2026-05-04 built but not published: \.\/digest publish first/);

    expect((await digest('publish')).code).toBe(0);
    expect((await digest('subscribers', 'add', 'ada@example.org', '--confirmed')).code).toBe(0);
    const sent = await digest('send');
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stderr).toMatch(/Sending 2026-05-04, the newest published edition\./);
    expect(sent.stdout).toMatch(/^Edition 2026-05-04:\n\s+elsewhere.*\n\s+sent\s+1\s+1 in this run/m);
    // One reader, one version of the edition: no count of versions is printed.
    expect(sent.stderr).not.toMatch(/versions of the edition|variant/);
    const mail = await smtp.next(1);
    expect(mail.to).toEqual(['ada@example.org']);

    const again = await digest('send');
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/Nothing to send: 2026-05-04, the newest published edition, has been sent/);
    expect(again.stdout).toBe('');
    expect(smtp.received).toHaveLength(1);
  }, 120_000);
});
