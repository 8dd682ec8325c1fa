// bin/digest.js runs dist/cli/main.cjs from V8's code cache: the first run of a command saves it, later
// runs use it as saved, a cache that does not fit (another build, a damaged file) is replaced, and the command runs
// the same either way. The real CLI process, with DIGEST_COMPILE_CACHE naming a temp folder.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'digest.js');
const BUNDLE = join(ROOT, 'dist', 'cli', 'main.cjs');
/** The CLI without the commands' modules, which a run naming no command runs. */
const HELP = join(ROOT, 'dist', 'cli', 'help.cjs');

describe('the compile cache of the CLI', () => {
  let cache: string;
  beforeAll(() => {
    cache = mkdtempSync(join(tmpdir(), 'digest-compile-cache-'));
  });
  afterAll(() => rmSync(cache, { recursive: true, force: true }));

  const digest = (args: string[], setting = cache) =>
    promisify(execFile)(process.execPath, [BIN, ...args], {
      cwd: cache,
      env: { ...process.env, DIGEST_COMPILE_CACHE: setting },
    });
  const files = () => readdirSync(cache).sort();
  const id = (file = BUNDLE) => readFileSync(`${file}.id`, 'utf8').trim();

  it('is keyed by a hash of the built file, so a rebuild never meets the cache of another', () => {
    for (const file of [BUNDLE, HELP])
      expect(id(file)).toBe(createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 16));
    expect(id(HELP)).not.toBe(id(BUNDLE));
  });

  it('saves one file per command on its first run and starts from it, unchanged, afterwards', async () => {
    const first = await digest(['--help']);
    expect(first.stdout).toContain('Usage: digest');
    expect(files()).toEqual([expect.stringMatching(new RegExp(`^${id(HELP)}-none-[0-9a-f]{8}\\.bin$`))]);
    const [help] = files();
    const saved = statSync(join(cache, help!));
    expect(saved.size).toBeGreaterThan(10_000);

    const again = await digest(['--help']);
    expect(again.stdout).toBe(first.stdout);
    // Accepted by V8, so not written again.
    expect(statSync(join(cache, help!)).mtimeMs).toBe(saved.mtimeMs);

    // A command runs the whole CLI, with its own cache; the help's stays (both are this build's).
    await digest(['list', '--help']);
    expect(files()).toHaveLength(2);
    expect(files().some((name) => name.startsWith(`${id()}-list-`))).toBe(true);
    expect(files()).toContain(help);
  });

  it('replaces a damaged cache and the caches of other builds, and runs the same', async () => {
    const [help] = files().filter((name) => name.includes('-none-'));
    writeFileSync(join(cache, help!), 'not a code cache');
    const stale = `${'0'.repeat(16)}-build-0123abcd.bin`;
    writeFileSync(join(cache, stale), 'an older build');
    const mine = 'notes.txt';
    writeFileSync(join(cache, mine), 'a file of the user, in a folder they named');

    const run = await digest(['--help']);
    expect(run.stdout).toContain('Usage: digest');
    expect(files()).not.toContain(stale);
    expect(files()).toContain(mine);
    expect(statSync(join(cache, help!)).size).toBeGreaterThan(10_000);
  });

  it('is off with DIGEST_COMPILE_CACHE=0', async () => {
    const before = files();
    const run = await digest(['doctor', '--help'], '0');
    expect(run.stdout).toContain('Usage: digest doctor');
    expect(files()).toEqual(before);
  });
});
