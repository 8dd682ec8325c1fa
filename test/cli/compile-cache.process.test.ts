// bin/digest.js turns on Node's own compile cache where the runtime has one (Node ≥ 22.1), in a folder that is the
// user's own: a second run starts from the code the first compiled; damaged cache files cost a compile, never a crash
// or a wrong answer; a folder someone else could have written (shared, another owner's, a link) is never read. On a
// runtime without one (Node 20) the CLI runs the same and writes no cache. The real CLI process, with
// DIGEST_COMPILE_CACHE naming a temp folder and Node's own trace of its compile cache (NODE_DEBUG_NATIVE).
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/loopback.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'digest.js');
const HAS_COMPILE_CACHE = 'enableCompileCache' in module;

interface Run {
  stdout: string;
  /** Node's compile-cache trace lines. */
  trace: string[];
}

describe('the compile cache of the CLI', () => {
  let scratch: string;
  let cache: string;
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'digest-compile-cache-'));
    cache = join(scratch, 'cache');
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  async function digest(args: string[], folder = cache): Promise<Run> {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...args], {
      cwd: scratch,
      env: { ...process.env, DIGEST_COMPILE_CACHE: folder, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' },
    });
    // The trace is coloured.
    const plain = stderr.replace(/\u001b\[[0-9;]*m/g, '');
    return { stdout, trace: plain.split('\n').filter((line) => line.startsWith('[compile cache]')) };
  }
  /** Every cache file under `folder`. */
  const entries = (folder = cache) =>
    existsSync(folder)
      ? readdirSync(folder, { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => join(entry.parentPath, entry.name))
      : [];

  it('is kept in a folder of the user alone and used by the next run (none on a runtime without one)', async () => {
    const first = await digest(['--help']);
    expect(first.stdout).toContain('Usage: digest');
    if (!HAS_COMPILE_CACHE) {
      expect(existsSync(cache)).toBe(false);
      expect(first.trace).toEqual([]);
      return;
    }
    expect(statSync(cache).mode & 0o777).toBe(0o700);
    expect(entries().length).toBeGreaterThan(0);
    const second = await digest(['--help']);
    expect(second.stdout).toBe(first.stdout);
    expect(second.trace.some((line) => /dist\/cli\/main\.js was accepted/.test(line))).toBe(true);
  });

  it('runs the same from damaged cache files, every time, and mends them', async () => {
    const reference = await digest(['list', '--help']);
    for (const [index, file] of entries().entries()) damage(file, index % 2 === 0 ? 'header' : 'code');
    for (let run = 0; run < 3; run++) {
      const again = await digest(['list', '--help']);
      expect(again.stdout).toBe(reference.stdout);
      expect(again.trace.some((line) => /was accepted/.test(line) && /main\.js/.test(line))).toBe(
        HAS_COMPILE_CACHE && run > 0,
      );
    }
  });

  it('never reads a folder others may write, another user owns, or a link', async () => {
    const shared = join(scratch, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    const planted = join(shared, 'planted');
    writeFileSync(planted, randomBytes(4096));
    const target = join(scratch, 'own-but-linked');
    mkdirSync(target, { mode: 0o700 });
    const link = join(scratch, 'link');
    symlinkSync(target, link);
    const folders = [shared, link];
    if (process.getuid?.() === 0) {
      // Root can hand a folder to another user, as a shared machine has them.
      const theirs = join(scratch, 'theirs');
      mkdirSync(theirs, { mode: 0o700 });
      chownSync(theirs, 65_534, 65_534);
      folders.push(theirs);
    }
    for (const folder of folders) {
      const run = await digest(['--help'], folder);
      expect(run.stdout).toContain('Usage: digest');
      expect(run.trace).toEqual([]);
    }
    expect(entries(shared)).toEqual([planted]);
    expect(entries(target)).toEqual([]);
  });

  it('is off with DIGEST_COMPILE_CACHE=0', async () => {
    const run = await digest(['doctor', '--help'], '0');
    expect(run.stdout).toContain('Usage: digest doctor');
    expect(run.trace).toEqual([]);
  });
});

/** 16 random bytes written over a cache file: over its header (sizes, checksums) or into V8's code after it. */
function damage(file: string, where: 'header' | 'code'): void {
  const size = statSync(file).size;
  const descriptor = openSync(file, 'r+');
  try {
    writeSync(descriptor, randomBytes(16), 0, 16, where === 'header' ? 0 : Math.floor(size / 2));
  } finally {
    closeSync(descriptor);
  }
}

describe('DIGEST_DEBUG', () => {
  it("prints a stack trace that names the TypeScript source, through dist/'s source maps", async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'digest-debug-trace-'));
    try {
      // A PostgreSQL that is not there (a loopback port just freed): an error the CLI prints with its stack.
      const port = await freePort();
      const failed = await promisify(execFile)(process.execPath, [BIN, 'list'], {
        cwd,
        env: { ...process.env, DIGEST_DEBUG: '1', DATABASE_URL: `postgres://u:p@127.0.0.1:${port}/db` },
      }).catch((error: { code: number; stderr: string }) => error);
      expect('code' in failed && failed.code).toBe(1);
      expect(failed.stderr).toMatch(/at \S+ \(.*\/src\/store\/open-store\.ts:\d+:\d+\)/);
      expect(failed.stderr).not.toContain('dist/chunks/');
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
