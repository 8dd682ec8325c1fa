// The schedule section of the config: defaults, and bad values stopping the CLI (exit 2) naming the field.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/config-schema.js';
import { runDigest } from '../support/cli.js';

describe('schedule config', () => {
  it('defaults to Mondays 07:00 UTC, enabled, drafts awaiting approval, a build of at most an hour and 1 GB', () => {
    expect(configSchema.parse({}).schedule).toEqual({
      enabled: true,
      cron: '0 7 * * 1',
      timeZone: 'UTC',
      autoPublish: false,
      buildTimeoutSeconds: 3_600,
      buildMemoryMb: 1_024,
    });
  });

  it('takes schedule.backup with keep 7 in ./backups unless said', () => {
    expect(configSchema.parse({ schedule: { backup: { cron: '0 3 * * *' } } }).schedule.backup).toEqual({
      cron: '0 3 * * *',
      keep: 7,
      dir: 'backups',
    });
  });

  for (const [field, value, message] of [
    ['cron', '0 7 * * 8', /schedule\.cron: not a cron expression .*dayOfWeek/],
    ['cron', 'every monday', /schedule\.cron: not a cron expression/],
    ['timeZone', 'Mars/Olympus', /schedule\.timeZone: not a time zone/],
    ['autoPublish', 'yes', /schedule\.autoPublish/],
    ['buildTimeoutSeconds', 0, /schedule\.buildTimeoutSeconds/],
    ['buildMemoryMb', 'lots', /schedule\.buildMemoryMb/],
    ['backup', { cron: 'nightly' }, /schedule\.backup\.cron: not a cron expression/],
    ['backup', { cron: '0 3 * * *', keep: 0 }, /schedule\.backup\.keep/],
    ['backup', { cron: '0 3 * * *', copies: 3 }, /schedule\.backup/],
  ] as const) {
    it(`exits 2 naming schedule.${field} for ${JSON.stringify(value)}`, async () => {
      const cwd = mkdtempSync(join(tmpdir(), 'digest-schedule-config-'));
      try {
        writeFileSync(join(cwd, 'digest.config.json'), JSON.stringify({ schedule: { [field]: value } }));
        const run = await runDigest(['list'], { cwd });
        expect(run.code, run.stderr).toBe(2);
        expect(run.stderr).toMatch(message);
      } finally {
        rmSync(cwd, { recursive: true, force: true });
      }
    });
  }
});
