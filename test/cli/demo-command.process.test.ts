// `npm start` runs `digest demo`, which ends with the commands to type next: written as the README has users type
// them (`./digest …`, the clone's link to bin/digest.js), each one a command the README itself shows that way.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDigest } from '../support/cli.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const COMMAND = /(?:^|[\s"'`(])(\.\/)?digest ([a-z][a-z-]*)\b/g;

describe('the hints `npm start` (digest demo) prints', () => {
  let cwd: string;
  let printed: string;
  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'digest-demo-hints-'));
    const run = await runDigest(['demo'], { cwd, env: { DIGEST_CONFIG_JSON: '' } });
    expect(run.code, run.stderr).toBe(0);
    printed = run.stderr + run.stdout;
  }, 180_000);
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));

  it('name every command as the README types it: ./digest <command>', () => {
    const named = [...printed.matchAll(COMMAND)];
    expect(named.map((match) => match[2])).toEqual(
      expect.arrayContaining(['list', 'publish', 'serve', 'init']),
    );
    for (const [whole, link, command] of named) {
      expect(link, whole).toBe('./');
      expect(README, `the README types ./digest ${command}`).toContain(`./digest ${command}`);
    }
  });
});
