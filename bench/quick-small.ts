// "quick and small", as a user meets it (the compiled CLI, each command its own process):
// - a rebuild of the unchanged sample week (after one build that records its inputs), and a build with no model
//   (`--offline --refresh` on a fresh copy of the demo's data folder: every stage runs, nothing is reused) (wall s,
//   medians of 5, with the machine's load average beside them: the machine is shared), started from bin/digest.js's
//   compile cache as every run but a command's first is; that first run is a row of its own;
// - the whole process tree's peak RSS of the README's commands, run as written (`./digest …`, the clone's link to
//   bin/digest.js) and through `npx digest …` for comparison (npm's own process counted)
//   and as `./bin/digest.js …` (no npm process): a build with a model (loopback fake, 300 ms) and `serve` under load;
// - `serve` idle after 200 requests (the README's `./digest serve`, one process): the tree's RSS then, and again after
//   20 scrapes of /metrics (with the operator's token) on top: what a scrape loads or grows stays for good;
// - a dead local model (ollama on a closed loopback port): calls made (the refused attempt counts) and wall time;
// - tokens per write call against a real grammar engine (node-llama-cpp, the suite's tiny model) and the bound.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JSONSchema7 } from '@ai-sdk/provider';
import { tokenBound } from '../src/llm/token-bound.js';
import { startFakeLlm } from '../test/support/fake-llm.js';
import { readFixture } from '../test/support/fixtures.js';
import { freePort, startLoopback } from '../test/support/loopback.js';
import { engineProblem, startRealEngine } from '../test/support/real-engine.js';
import { autocannon, startChild, stop } from './_http.js';

const root = join(import.meta.dirname, '..');
const BIN = join(root, 'bin', 'digest.js');
const TREE = join(import.meta.dirname, '_tree-rss-report.mjs');
const WEEK = '2026-05-04';
const SECRET = 'bench-secret-bench-secret-bench-secret!!';
const METRICS_TOKEN = 'bench-metrics-token-0123456789';
/** Runs per timed command: the median of five, since one neighbour's burst on a shared machine moves one of three. */
const RUNS = 5;

interface Run {
  seconds: number;
  status: number | null;
  stderr: string;
  /** Sum of every process's peak RSS in the tree (MB), when measured. */
  treeMb: number;
  /** CPU time of every node process in the tree (user + system, s). */
  cpuSeconds: number;
}

/** Runs a command line (`node bin/digest.js …` or `npx digest …`) in `cwd`, its tree's peak RSS reported. */
async function run(command: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  // In the temp folder, not in `cwd` (the clone, for `npx digest`).
  const treeFile = join(tmpdir(), `digest-tree-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  const started = performance.now();
  const child = spawn(command[0]!, command.slice(1), {
    cwd,
    env: {
      ...process.env,
      NODE_OPTIONS: `--import=${TREE}`,
      DIGEST_BENCH_TREE_FILE: treeFile,
      DATABASE_URL: '',
      npm_config_offline: 'true',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-8000);
  });
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const seconds = (performance.now() - started) / 1000;
  const treeMb = treeSum(treeFile);
  const cpuSeconds = treeSum(treeFile, 2);
  rmSync(treeFile, { force: true });
  return { seconds, status, stderr, treeMb, cpuSeconds };
}

function reports(file: string): number {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
}

/** The sum of one field over the tree's processes: 1 peak RSS (MB), 2 CPU time (s). */
function treeSum(file: string, field = 1): number {
  try {
    const lines = readFileSync(file, 'utf8').trim().split('\n').filter(Boolean);
    return lines.reduce((sum, line) => sum + Number(line.split(' ')[field] ?? 0), 0);
  } catch {
    return 0;
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round = (value: number, places = 2) => Math.round(value * 10 ** places) / 10 ** places;

/** The README's command as written (`./digest`, from the clone) and through npm (`npx digest`), for comparison. */
const viaNpx = (dataDir: string, ...args: string[]) => ['npx', 'digest', ...args, '--data-dir', dataDir];
const viaReadme = (dataDir: string, ...args: string[]) => ['./digest', ...args, '--data-dir', dataDir];
/** A build of the sample week by the compiled CLI. */
const build = (...args: string[]) => [process.execPath, BIN, 'build', '--week', WEEK, '--no-ingest', ...args];

export async function benchQuickSmall(): Promise<Record<string, number | string>> {
  const cwd = mkdtempSync(join(tmpdir(), 'digest-bench-quick-'));
  const data = join(cwd, 'data');
  const figures: Record<string, number | string> = {};
  // Node's compile cache, which bin/digest.js turns on (node_modules/.cache/digest-compile-cache/ by default, Node ≥
  // 22), in the bench's own folder: the first build below starts without one, as the first run after an install does;
  // the timed ones start from it.
  const cacheBefore = process.env.DIGEST_COMPILE_CACHE;
  process.env.DIGEST_COMPILE_CACHE = join(cwd, 'compile-cache');
  try {
    const demo = await run(
      [process.execPath, BIN, 'demo', '--out', join(cwd, 'out'), '--data-dir', data],
      cwd,
    );
    if (demo.status !== 0) throw new Error(`digest demo failed:\n${demo.stderr}`);
    // No enrichment: its lookups of arXiv and Semantic Scholar would time the network, not the build.
    const offline = build('--no-enrich', '--out', join(cwd, 'out'));
    const load = loadavg()[0]!;
    const first = join(cwd, 'data-first');
    cpSync(data, first, { recursive: true });
    const cold = await run([...offline, '--offline', '--refresh', '--data-dir', first], cwd);
    rmSync(first, { recursive: true, force: true });
    const noModel: Run[] = [];
    for (let index = 0; index < RUNS; index++) {
      const fresh = join(cwd, `data-fresh-${index}`);
      cpSync(data, fresh, { recursive: true });
      noModel.push(await run([...offline, '--offline', '--refresh', '--data-dir', fresh], cwd));
      rmSync(fresh, { recursive: true, force: true });
    }
    // The demo's own writes came after its build: one build records the inputs a rebuild finds unchanged.
    await run([...offline, '--data-dir', data], cwd);
    const rebuild: Run[] = [];
    for (let index = 0; index < RUNS; index++) rebuild.push(await run([...offline, '--data-dir', data], cwd));
    const wall = (runs: Run[]) => round(median(runs.map((each) => each.seconds)));
    const cpu = (runs: Run[]) => round(median(runs.map((each) => each.cpuSeconds)));
    figures['rebuild of the unchanged week wall s (median of 5)'] = wall(rebuild);
    figures['rebuild of the unchanged week CPU s (median of 5)'] = cpu(rebuild);
    figures['build without a model wall s (median of 5)'] = wall(noModel);
    figures['build without a model CPU s (median of 5)'] = cpu(noModel);
    figures['build without a model, first run (no compile cache yet) wall s'] = round(cold.seconds);
    figures['load average (1 min) when timed, 2 cores'] = `${round(load, 1)} → ${round(loadavg()[0]!, 1)}`;

    Object.assign(figures, await readmeTrees(cwd, data));
    const idle = await serveIdle(cwd, data);
    figures['serve idle RSS MB after 200 requests, `./digest serve` tree'] = idle.requests;
    figures['serve idle RSS MB after 200 requests and 20 /metrics scrapes, `./digest serve` tree'] =
      idle.scrapes;
    figures['load average (1 min) when serve was measured, 2 cores'] = round(loadavg()[0]!, 1);
    Object.assign(figures, await deadModel(cwd, data));
    Object.assign(figures, await grammarEngine(cwd));
    return figures;
  } finally {
    if (cacheBefore === undefined) delete process.env.DIGEST_COMPILE_CACHE;
    else process.env.DIGEST_COMPILE_CACHE = cacheBefore;
    rmSync(cwd, { recursive: true, force: true });
  }
}

/** `build` with a model and `serve` under load, run as the README says and without npm's process. */
async function readmeTrees(cwd: string, data: string): Promise<Record<string, number>> {
  const fake = await startFakeLlm({ latencyMs: 300 });
  const out = join(cwd, 'out');
  const env = {
    OPENAI_API_KEY: 'bench-key',
    OPENAI_BASE_URL: fake.baseURL,
    DIGEST_CONFIG_JSON: JSON.stringify({ llm: { write: 'openai:gpt-4.1-mini' } }),
  };
  const withModel = ['build', '--week', WEEK, '--no-ingest', '--no-enrich', '--refresh', '--out', out];
  try {
    const npx = await run(viaNpx(data, ...withModel), root, env);
    const readme = await run(viaReadme(data, ...withModel), root, env);
    return {
      'build with a model, `./digest` (the README): tree peak MB': readme.treeMb,
      'build with a model, `npx digest` (npm beside it): tree peak MB': npx.treeMb,
      'serve under load, `./digest` (the README): tree peak MB': await serveTree(['./digest'], data, cwd),
      'serve under load, `npx digest` (npm beside it): tree peak MB': await serveTree(
        ['npx', 'digest'],
        data,
        cwd,
      ),
    };
  } finally {
    await fake.close();
  }
}

async function serveTree(command: string[], data: string, cwd: string): Promise<number> {
  const treeFile = join(cwd, `.tree-serve-${command[0] === 'npx' ? 'npx' : 'bin'}`);
  const child = spawn(command[0]!, [...command.slice(1), 'serve', '--port', '0', '--data-dir', data], {
    cwd: root,
    env: {
      ...process.env,
      NODE_OPTIONS: `--import=${TREE}`,
      DIGEST_BENCH_TREE_FILE: treeFile,
      DATABASE_URL: '',
      PORT: '',
      DIGEST_SECRET: SECRET,
      npm_config_offline: 'true',
    },
    stdio: ['ignore', 'pipe', 'ignore'],
    // Its own process group: npx runs the CLI under a shell, and the stop must reach every process of the tree.
    detached: true,
  });
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const address = /https?:\/\/\S+/.exec(stdout)?.[0];
      if (address) resolve(address);
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code} before listening`)));
  });
  await autocannon(url, { seconds: 5, connections: 10 });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
  // The CLI's graceful stop may end after npx's: wait for its report (one line per node process).
  const processes = command[0] === 'npx' ? 2 : 1;
  for (let waited = 0; waited < 10_000 && reports(treeFile) < processes; waited += 200) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return treeSum(treeFile);
}

/**
 * `./digest serve` (the README's command: one node process) idle after 200 requests to its pages, then idle again
 * after 20 scrapes of /metrics: the tree's RSS each time (MB).
 */
async function serveIdle(cwd: string, data: string): Promise<{ requests: number; scrapes: number }> {
  const serve = startChild([BIN, 'serve', '--port', '0', '--out', join(cwd, 'out'), '--data-dir', data], {
    cwd,
    env: { DIGEST_SECRET: SECRET, DIGEST_METRICS_TOKEN: METRICS_TOKEN, DATABASE_URL: '', PORT: '' },
  });
  try {
    const base = await serve.url;
    const paths = ['', `${WEEK}/`, 'healthz', 'api/v1/editions'];
    for (let index = 0; index < 200; index += 10) {
      await Promise.all(
        Array.from({ length: 10 }, (_, offset) =>
          fetch(`${base}${paths[(index + offset) % paths.length]}`).then((response) => {
            if (!response.ok) throw new Error(`${response.url}: HTTP ${response.status}`);
            return response.arrayBuffer();
          }),
        ),
      );
    }
    // Idle: what the requests left behind once the server has had a moment with nothing to do.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const requests = treeRssMb(serve.child.pid!);
    // One after the other, as Prometheus scrapes: each reads every collected gauge from the database.
    for (let scrape = 0; scrape < 20; scrape++) {
      const response = await fetch(`${base}metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      if (!response.ok) throw new Error(`/metrics: HTTP ${response.status}`);
      await response.text();
    }
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    return { requests, scrapes: treeRssMb(serve.child.pid!) };
  } finally {
    await stop(serve.child);
  }
}

/** The resident memory (MB) of a process and every process under it, now. */
function treeRssMb(pid: number): number {
  const rss = (id: number) =>
    Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${id}/status`, 'utf8'))?.[1] ?? 0);
  const children = (id: number): number[] => {
    try {
      return readFileSync(`/proc/${id}/task/${id}/children`, 'utf8')
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map(Number);
    } catch {
      return [];
    }
  };
  let kilobytes = 0;
  for (const queue = [pid]; queue.length; ) {
    const id = queue.shift()!;
    kilobytes += rss(id);
    queue.push(...children(id));
  }
  return Math.round(kilobytes / 1024);
}

/** `ollama:qwen3:8b` configured and nothing listening: the calls it made and the build's wall time. */
async function deadModel(cwd: string, data: string): Promise<Record<string, number>> {
  const port = await freePort();
  const out = join(cwd, 'out-dead');
  const result = await run(build('--no-enrich', '--refresh', '--out', out, '--data-dir', data), cwd, {
    OLLAMA_BASE_URL: `http://127.0.0.1:${port}/v1`,
    DIGEST_CONFIG_JSON: JSON.stringify({ llm: { write: 'ollama:qwen3:8b' } }),
  });
  const edition = JSON.parse(readFileSync(join(out, WEEK, 'edition.json'), 'utf8')) as {
    usage?: { calls?: number };
  };
  const lines = result.stderr
    .split('\n')
    .filter((line) => line.includes(`127.0.0.1:${port}`) && line.includes('Fix:'));
  return {
    // The refused attempt (one) is counted with the failed calls; an edition without usage made none.
    'dead local model: LLM calls made': edition.usage?.calls ?? 0,
    'dead local model: lines naming the fix': lines.length,
    'dead local model: wall s': round(result.seconds),
  };
}

/** Write calls against the real engine: the most completion tokens one took, and the schema's bound. */
async function grammarEngine(cwd: string): Promise<Record<string, number | string>> {
  const problem = await engineProblem();
  if (problem) return { 'grammar engine': `skipped: ${problem}` };
  const feed = readFixture('real', 'simonwillison', 'atom_everything_2026-06-25.xml');
  const feeds = await startLoopback((_, response) => {
    response.writeHead(200, { 'content-type': 'application/atom+xml' }).end(feed);
  });
  const engine = await startRealEngine();
  const dir = join(cwd, 'engine');
  try {
    const config = join(cwd, 'engine.config.json');
    writeFileSync(
      config,
      JSON.stringify({
        itemsPerEdition: 4,
        sources: [{ id: 'rss-willison', type: 'feed', url: feeds.url('/feed.xml') }],
        llm: { write: 'openai-compatible:tiny-llama', openaiCompatible: { baseURL: engine.baseURL } },
      }),
    );
    await run(
      [
        process.execPath,
        BIN,
        'build',
        '--week',
        '2026-06-22',
        '--no-enrich',
        '--config',
        config,
        '--data-dir',
        dir,
        '--out',
        join(dir, 'out'),
      ],
      cwd,
    );
    const writes = engine
      .exchanges()
      .filter(
        (exchange) =>
          typeof exchange.schema?.properties === 'object' &&
          'takeaways' in (exchange.schema.properties as object),
      );
    const bound = writes.length ? tokenBound(writes[0]!.schema as JSONSchema7) : -1;
    return {
      'grammar engine: write calls': writes.length,
      'grammar engine: most tokens in a write call': Math.max(
        0,
        ...writes.map((exchange) => exchange.usage.completion_tokens),
      ),
      'grammar engine: write call bound (tokens)': bound,
      'grammar engine: write calls above the bound': writes.filter(
        (exchange) => exchange.usage.completion_tokens > bound,
      ).length,
    };
  } finally {
    await engine.close();
    await feeds.close();
  }
}
