// `npm run bench first-run`: the first command on a new data folder against the later ones, as a user runs them
// (the compiled CLI, each its own process): `digest demo`, and `digest serve` started, asked for a page, stopped.
// The figure is the whole process tree's peak RSS (bench/_tree-rss-report.mjs), so a child that prepares the
// database would count: a new folder starts from the build's prepared empty database, no initdb at run time.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild, stop } from './_http.js';

const root = join(import.meta.dirname, '..');
const BIN = join(root, 'bin', 'digest.js');
const PRELOAD = join(import.meta.dirname, '_tree-rss-report.mjs');
const SECRET = 'bench-secret-bench-secret-bench-secret!!';

function treeEnv(file: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${PRELOAD}`.trim(),
    DIGEST_BENCH_TREE_FILE: file,
    DATABASE_URL: '',
    PORT: '',
    DIGEST_SECRET: SECRET,
  };
}

/** The sum of the peaks each process of the tree reported, and how many processes reported. */
function treePeak(file: string): { mb: number; processes: number } {
  const lines = readFileSync(file, 'utf8').trim().split('\n').filter(Boolean);
  return { mb: lines.reduce((sum, line) => sum + Number(line.split(' ')[1]), 0), processes: lines.length };
}

async function demo(cwd: string, file: string): Promise<{ mb: number; processes: number }> {
  const child = spawn(process.execPath, [BIN, 'demo', '--out', 'out'], {
    cwd,
    env: treeEnv(file),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`digest demo exited ${code}:\n${stderr}`);
  return treePeak(file);
}

async function serve(cwd: string, dataDir: string, file: string): Promise<{ mb: number; processes: number }> {
  const server = startChild([BIN, 'serve', '--port', '0', '--data-dir', dataDir], {
    cwd,
    env: treeEnv(file),
  });
  const url = await server.url;
  const response = await fetch(`${url}healthz`);
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`digest serve answered ${response.status} on /healthz`);
  // SIGTERM: serve shuts down and exits normally, so its exit hook reports.
  await stop(server.child);
  return treePeak(file);
}

export async function benchFirstRun(): Promise<Record<string, number | string>> {
  const cwd = mkdtempSync(join(tmpdir(), 'digest-bench-first-run-'));
  try {
    const firstDemo = await demo(cwd, join(cwd, '.tree-demo-1'));
    const laterDemo = await demo(cwd, join(cwd, '.tree-demo-2'));
    const firstServe = await serve(cwd, join(cwd, 'serve-data'), join(cwd, '.tree-serve-1'));
    const laterServe = await serve(cwd, join(cwd, 'serve-data'), join(cwd, '.tree-serve-2'));
    return {
      'demo, new folder: peak RSS MB (whole tree)': firstDemo.mb,
      'demo, new folder: processes': firstDemo.processes,
      'demo, later run: peak RSS MB (whole tree)': laterDemo.mb,
      'serve, new folder: peak RSS MB (whole tree)': firstServe.mb,
      'serve, new folder: processes': firstServe.processes,
      'serve, later run: peak RSS MB (whole tree)': laterServe.mb,
    };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}
