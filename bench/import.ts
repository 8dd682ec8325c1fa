// `digest subscribers import` of 100,000 addresses through the real CLI on an embedded PGlite data folder: once
// with a confirmation mail queued for each (the default), once with consent asserted (--confirmed); wall time of
// the whole command, start-up and migrations included.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = join(here, '..', 'bin', 'digest.js');
const ROWS = 100_000;

function importOnce(cwd: string, dataDir: string, flags: string[]): { seconds: number; line: string } {
  const started = performance.now();
  const run = spawnSync(
    process.execPath,
    [BIN, 'subscribers', 'import', 'readers.csv', '--data-dir', dataDir, ...flags],
    {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, DIGEST_SECRET: 'a-bench-secret-of-at-least-32-bytes!!' },
    },
  );
  const seconds = (performance.now() - started) / 1000;
  if (run.status !== 0) throw new Error(`import exited ${run.status}: ${run.stderr}`);
  return { seconds, line: run.stdout.trim() };
}

export async function benchImport(): Promise<Record<string, number | string>> {
  const cwd = await mkdtemp(join(tmpdir(), 'digest-bench-import-'));
  try {
    const lines = [
      'name,email',
      ...Array.from(
        { length: ROWS },
        (_, index) => `Reader ${index},reader${index}@mail${index % 97}.example.net`,
      ),
    ];
    await writeFile(join(cwd, 'readers.csv'), `${lines.join('\n')}\n`);
    await writeFile(
      join(cwd, 'digest.config.json'),
      JSON.stringify({
        publish: {
          baseUrl: 'https://digest.example.org/',
          email: { from: 'Digest <digest@digest.example.org>', smtp: { host: '127.0.0.1', port: 2525 } },
        },
      }),
    );
    const mailed = importOnce(cwd, join(cwd, 'data-mailed'), []);
    const consented = importOnce(cwd, join(cwd, 'data-consent'), ['--confirmed']);
    return {
      'import 100k rows, confirmation mails queued s': Number(mailed.seconds.toFixed(1)),
      'import 100k rows, consent asserted s': Number(consented.seconds.toFixed(1)),
      'import report': mailed.line.replace(/^imported \S+: /, ''),
    };
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
}
