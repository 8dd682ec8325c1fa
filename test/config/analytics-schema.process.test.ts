// The analytics section: the mode in force (aggregate by default when the service mails), the short form, and bad
// values stopping the CLI (exit 2) naming the field.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyticsMode } from '../../src/config/analytics-schema.js';
import { configSchema } from '../../src/config/config-schema.js';
import { runDigest } from '../support/cli.js';

const smtp = { host: '127.0.0.1', port: 2525 };

describe('analytics config', () => {
  it('is "aggregate" when the service mails, "off" when it cannot; a set mode wins', () => {
    const mailing = configSchema.parse({ publish: { baseUrl: 'https://news.example/', email: { smtp } } });
    expect(mailing.analytics).toEqual({ site: false, perMinute: 30 });
    expect(analyticsMode(mailing)).toBe('aggregate');
    expect(analyticsMode(configSchema.parse({ publish: { baseUrl: 'https://news.example/' } }))).toBe('off');
    expect(analyticsMode(configSchema.parse({ publish: { email: { smtp } } }))).toBe('off');
    const off = configSchema.parse({
      publish: { baseUrl: 'https://news.example/', email: { smtp } },
      analytics: 'off',
    });
    expect(analyticsMode(off)).toBe('off');
    const perReader = configSchema.parse({ analytics: { mode: 'per-reader', site: true } });
    expect(perReader.analytics).toEqual({ mode: 'per-reader', site: true, perMinute: 30 });
    expect(analyticsMode(perReader)).toBe('per-reader');
  });

  for (const [analytics, message] of [
    ['everything', /analytics\.mode: must be "off", "aggregate" or "per-reader"/],
    [{ mode: 'per-user' }, /analytics\.mode: must be "off", "aggregate" or "per-reader"/],
    [{ site: 'yes' }, /analytics\.site/],
    [{ perMinute: 0 }, /analytics\.perMinute/],
    [{ track: true }, /analytics: unknown field\(s\) "track"/],
  ] as const) {
    it(`exits 2 naming the field for ${JSON.stringify(analytics)}`, async () => {
      const cwd = mkdtempSync(join(tmpdir(), 'digest-analytics-config-'));
      try {
        writeFileSync(join(cwd, 'digest.config.json'), JSON.stringify({ analytics }));
        const run = await runDigest(['list'], { cwd });
        expect(run.code, run.stderr).toBe(2);
        expect(run.stderr).toMatch(message);
      } finally {
        rmSync(cwd, { recursive: true, force: true });
      }
    });
  }
});
