// The real compiled CLI as a user runs it: start-up, the sample week offline and with a loopback fake LLM, `list`.
// Each command is its own process; its peak RSS is reported by a preload (bench/_rss-report.mjs).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeLlm } from '../test/support/fake-llm.js';

const root = join(import.meta.dirname, '..');
const BIN = join(root, 'bin', 'digest.js');
const PRELOAD = join(import.meta.dirname, '_rss-report.mjs');

interface Run {
  seconds: number;
  rssMb: number;
  status: number | null;
  stderr: string;
}

// Asynchronous on purpose: the fake LLM server answers from this process while the CLI runs.
async function run(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const rssFile = join(cwd, '.rss');
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', PRELOAD, ...args], {
    cwd,
    env: { ...process.env, DATABASE_URL: '', DIGEST_BENCH_RSS_FILE: rssFile, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const seconds = (performance.now() - started) / 1000;
  let rssMb = 0;
  try {
    rssMb = Number(readFileSync(rssFile, 'utf8'));
  } catch {}
  return { seconds, rssMb, status, stderr };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function runJson(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ candidates: { key: string; picked: boolean }[] }> {
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, DATABASE_URL: '', ...env } });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  await new Promise((resolve) => child.on('close', resolve));
  return JSON.parse(stdout);
}

async function times(once: () => Promise<Run>, count = 7): Promise<number[]> {
  const seconds: number[] = [];
  for (let index = 0; index < count; index++) seconds.push((await once()).seconds);
  return seconds;
}

const round = (value: number, places = 3) => Math.round(value * 10 ** places) / 10 ** places;

export async function benchCli(): Promise<Record<string, number | string>> {
  const cwd = mkdtempSync(join(tmpdir(), 'digest-bench-cli-'));
  const fake = await startFakeLlm({ latencyMs: 300 });
  try {
    const bare = median(await times(() => run(['-e', '0'], cwd)));
    const help = median(await times(() => run([BIN, '--help'], cwd)));

    // First run creates the sample store; the second is the weekly steady state (store on disk).
    const first = await run([BIN, 'demo', '--out', 'out'], cwd);
    if (first.status !== 0) throw new Error(`digest demo failed:\n${first.stderr}`);
    const again = await run([BIN, 'demo', '--out', 'out'], cwd);
    const list = await run([BIN, 'list', '--week', '2026-05-04'], cwd);

    writeFileSync(
      join(cwd, 'digest.config.json'),
      JSON.stringify({ llm: { write: 'openai:gpt-4.1-mini', check: 'openai:gpt-4.1-mini' } }),
    );
    const llmEnv = { OPENAI_API_KEY: 'bench-key', OPENAI_BASE_URL: fake.baseURL };
    const llm = await run([BIN, 'build', '--week', '2026-05-04', '--no-ingest', '--no-enrich'], cwd, llmEnv);
    // `digest list` after the LLM build: the build's ranking from the cached triage, with no model call.
    const callsBefore = fake.requests.length;
    const listed = await runJson([BIN, 'list', '--week', '2026-05-04', '--json'], cwd, llmEnv);
    // The build's draft (out/ holds the demo's published edition, which `build` leaves as it is).
    const edition = JSON.parse(readFileSync(join(cwd, 'drafts', '2026-05-04', 'edition.json'), 'utf8')) as {
      items: { key: string }[];
    };
    const picked = new Set(listed.candidates.filter((row) => row.picked).map((row) => row.key));
    const samePicks =
      picked.size === edition.items.length && edition.items.every((item) => picked.has(item.key)) ? 1 : 0;
    return {
      'list after LLM build: LLM calls': fake.requests.length - callsBefore,
      'list after LLM build: same picks as the build (1 = yes)': samePicks,
      '--help wall s': round(help),
      'node -e 0 wall s': round(bare),
      '--help / node -e 0': round(help / bare, 2),
      'sample build offline, new store, wall s': round(first.seconds),
      'sample build offline, new store, peak RSS MB': first.rssMb,
      'sample build offline wall s': round(again.seconds),
      'sample build offline peak RSS MB': again.rssMb,
      'sample build with fake LLM (300 ms) wall s': round(llm.seconds),
      'sample build with fake LLM peak RSS MB': llm.rssMb,
      'sample build with fake LLM exit': llm.status ?? -1,
      'list wall s': round(list.seconds),
      'list peak RSS MB': list.rssMb,
    };
  } finally {
    await fake.close();
    rmSync(cwd, { recursive: true, force: true });
  }
}
