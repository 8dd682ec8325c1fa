// `digest send --at` and `--cancel` (docs/sending.md, docs/exit-status.md): a time in the past or unreadable is exit
// 2 naming the flag, nothing set; a future time is set and shown in its zone and in UTC; a cancel with nothing
// waiting is exit 1.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDigest } from '../support/cli.js';

describe('digest send --at / --cancel', () => {
  let cwd: string;
  const digest = (...args: string[]) => runDigest(args, { cwd, env: { DIGEST_CONFIG_JSON: '' } });

  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'digest-send-at-'));
    expect((await digest('init', '--yes', '--smtp', '127.0.0.1:9')).code).toBe(0);
    expect((await digest('demo')).code).toBe(0);
  }, 120_000);
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));

  it('refuses an unpublished edition (exit 1), a past or unreadable time (exit 2, naming --at)', async () => {
    const unpublished = await digest('send', '--at', '2099-01-05T08:00');
    expect(unpublished.code).toBe(1);
    expect(unpublished.stderr).toMatch(/built but not published/);
    expect((await digest('publish')).code).toBe(0);

    const past = await digest('send', '--at', '2020-01-06T08:00Z');
    expect(past.code).toBe(2);
    expect(past.stderr).toMatch(/--at: 2020-01-06T08:00Z .*is not in the future/);
    const unreadable = await digest('send', '--at', 'next monday');
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toMatch(/--at <iso-time>.*next monday.*expected a time like 2026-05-11T08:00/);
    const none = await digest('send', '--cancel');
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/No scheduled send is waiting/);
  }, 120_000);

  it('sets a future send, shown in its zone and UTC, and cancels it once', async () => {
    const set = await digest('send', '--at', '2099-01-05T08:00+01:00');
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/The send of 2026-05-04 is set for .*\(UTC 2099-01-05T07:00:00\.000Z\)/);
    const cancelled = await digest('send', '--cancel', '--week', '2026-05-04');
    expect(cancelled.code).toBe(0);
    expect(cancelled.stdout).toMatch(/Cancelled the send of 2026-05-04 set for 2099-01-05T07:00:00\.000Z/);
    expect((await digest('send', '--cancel')).code).toBe(1);
  }, 60_000);
});
