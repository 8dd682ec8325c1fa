// A real local inference engine on loopback for tests: node-llama-cpp (llama.cpp, CPU) behind
// test/support/engine/llama-server.mjs, loaded with the tiny GGUF that scripts/make-tiny-gguf.mjs writes. Beside the
// fake servers, this is what a user running a model on their own machine meets: one slot, a queue,
// grammar-constrained answers. The engine is its own small package (test/support/engine/package.json, only the CPU
// build), installed on demand by `npm run engine:install` and by .ci/run, so the project's own `npm install` stays
// small.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const ENGINE = join(ROOT, 'test', 'support', 'engine');
const SERVER = join(ENGINE, 'llama-server.mjs');
const MAKE_MODEL = join(ROOT, 'scripts', 'make-tiny-gguf.mjs');

/** One answered request, as the engine's server logged it. */
export interface EngineExchange {
  /** The JSON schema the engine turned into its grammar (null: free text). */
  schema: Record<string, unknown> | null;
  /** The max_tokens the request asked for (null: none). */
  maxTokens: number | null;
  text: string;
  usage: { prompt_tokens: number; completion_tokens: number };
  finish: 'stop' | 'length';
  /** Time the request waited in the engine's one-slot line. */
  queuedMs: number;
  ms: number;
  /** Requests in line or running when this one arrived (itself included). */
  inFlightOnArrival: number;
}

export interface RealEngine {
  origin: string;
  /** For llm.openaiCompatible.baseURL. */
  baseURL: string;
  exchanges(): EngineExchange[];
  close(): Promise<void>;
}

function run(args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, args, { cwd: ROOT }, (error, _stdout, stderr) => {
      done({ code: error ? Number(error.code ?? 1) : 0, stderr });
    });
  });
}

/** Why the engine cannot run on this machine (its binary does not load), or null when it can. */
export async function engineProblem(): Promise<string | null> {
  if (!existsSync(join(ENGINE, 'node_modules', 'node-llama-cpp')))
    return 'the real engine is not installed: run "npm run engine:install" (llama.cpp\'s CPU build, about 85 MB, into test/support/engine/)';
  const probe = await run([SERVER, '--probe']);
  return probe.code === 0 ? null : `${probe.stderr.trim()} (npm run engine:install installs its CPU build)`;
}

function waitForListening(child: ChildProcess): Promise<string> {
  return new Promise((resolveOrigin, reject) => {
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const origin = /^listening (http:\/\/\S+)$/.exec(line)?.[1];
      if (origin) resolveOrigin(origin);
    });
    child.once('exit', (code) =>
      reject(new Error(`llama-server exited (${code}) before listening: ${stderr}`)),
    );
  });
}

/** Makes the tiny model in a temp folder, starts the engine's server on an ephemeral loopback port. */
export async function startRealEngine(options: { apiKey?: string } = {}): Promise<RealEngine> {
  const dir = mkdtempSync(join(tmpdir(), 'digest-engine-'));
  const model = join(dir, 'tiny-llama.gguf');
  const made = await run([MAKE_MODEL, model]);
  if (made.code !== 0) throw new Error(`could not make the test model: ${made.stderr}`);
  const log = join(dir, 'exchanges.jsonl');
  const args = [SERVER, '--model', model, '--port', '0', '--log', log];
  if (options.apiKey) args.push('--api-key', options.apiKey);
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const origin = await waitForListening(child);
  return {
    origin,
    baseURL: `${origin}/v1`,
    exchanges: () =>
      existsSync(log)
        ? readFileSync(log, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as EngineExchange)
        : [],
    close: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((done) => child.once('exit', done));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
