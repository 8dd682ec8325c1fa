// The MCP abuse against the real `digest serve` over a year of published editions: the nested flood of
// the nested flood (batches holding 10 arrays of 100 search_items or 80 get_edition calls, 40 from one address at
// concurrency 4 — the issue sent six in a row: refused as not flat), 40 JSON-RPC batches of 100 search_items calls at concurrency 4 (refused by
// the batch cap), then the heaviest batches the caps allow
// (10 calls, 200 results in all) 200 times at concurrency 4 with the per-address limit lifted (an attacker with many
// addresses) — the server's RSS sampled from /proc throughout, and /healthz timed in each phase (the target is the
// issue's attack; the capped flood's figures show what a determined client still costs).
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../src/store/open-store.js';
import { weeklyEditions } from '../test/support/weekly-editions.js';
import { BIN, startChild, stop } from './_http.js';

const EDITIONS = 52;
const CONCURRENCY = 4;

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

const search = (id: number, limit: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'search_items', arguments: { q: 'model', limit } },
});

const getEdition = (id: number, date: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'get_edition', arguments: { date } },
});

/** The nested flood: 10 arrays inside one batch, each of `size` calls. */
const nested = (size: number, call: (id: number) => unknown) =>
  Array.from({ length: 10 }, (_, outer) =>
    Array.from({ length: size }, (_, inner) => call(outer * size + inner)),
  );

export async function benchMcpAbuse(): Promise<Record<string, number | string>> {
  const dir = await mkdtemp(join(tmpdir(), 'digest-bench-mcp-'));
  const store = await openStore({ dataDir: join(dir, 'data') });
  const editions = weeklyEditions(EDITIONS);
  for (const edition of editions) {
    await store.editions.save(edition);
    await store.editions.markPublished(edition.date, `${edition.date}T09:00:00.000Z`);
  }
  await store.close();
  await writeFile(
    join(dir, 'digest.config.json'),
    JSON.stringify({
      server: { mcpPerMinute: 1_000_000 },
      publish: { baseUrl: 'https://digest.example.org/' },
    }),
  );
  const serve = startChild(
    [BIN, 'serve', '--port', '0', '--out', join(dir, 'site'), '--data-dir', join(dir, 'data')],
    {
      cwd: dir,
      env: { DIGEST_SECRET: 'bench-secret-bench-secret-bench-secret!!', DATABASE_URL: '', PORT: '' },
    },
  );
  try {
    const url = await serve.url;
    const pid = serve.child.pid!;
    const post = async (body: unknown) => {
      const response = await fetch(`${url}mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(body),
      });
      return { status: response.status, bytes: (await response.arrayBuffer()).byteLength };
    };
    // Warm: the SDK loads on the first MCP request.
    await post(Array.from({ length: 2 }, (_, index) => search(index, 5)));
    const idle = rssMb(pid);
    let peak = idle;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(pid));
    }, 25);
    // /healthz timed before any abuse (this machine's own figure), during the attack, and during the flood
    // of capped batches.
    const health: Record<'quiet' | 'nested' | 'attack' | 'capped', number[]> = {
      quiet: [],
      nested: [],
      attack: [],
      capped: [],
    };
    let phase: keyof typeof health | null = 'quiet';
    const prober = (async () => {
      while (phase) {
        const timed = phase;
        const started = performance.now();
        await fetch(`${url}healthz`).then((response) => response.arrayBuffer());
        health[timed].push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    while (health.quiet.length < 50) await new Promise((resolve) => setTimeout(resolve, 50));
    const run = async (count: number, batch: () => unknown) => {
      const statuses: Record<string, number> = {};
      let bytes = 0;
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next++ < count) {
            const answer = await post(batch());
            statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
            bytes = Math.max(bytes, answer.bytes);
          }
        }),
      );
      return { statuses, bytes };
    };
    phase = 'nested';
    const latest = editions.at(-1)!.date;
    let round = 0;
    const flood = await run(40, () =>
      round++ % 2 === 0 ? nested(100, (id) => search(id, 1)) : nested(80, (id) => getEdition(id, latest)),
    );
    const nestedPeak = peak;
    phase = 'attack';
    const attack = await run(40, () => Array.from({ length: 100 }, (_, index) => search(index, 100)));
    const attackPeak = peak;
    phase = 'capped';
    const cappedStarted = performance.now();
    const allowed = await run(200, () => Array.from({ length: 10 }, (_, index) => search(index, 20)));
    const cappedSeconds = (performance.now() - cappedStarted) / 1000;
    phase = null;
    await prober;
    clearInterval(sampler);
    peak = Math.max(peak, rssMb(pid));
    return {
      'serve idle RSS MB (after first MCP request)': idle,
      'nested flood (40 batches of 10 × 100 or 10 × 80 calls) statuses': JSON.stringify(flood.statuses),
      'RSS peak during the nested MCP flood MB': nestedPeak,
      'healthz p99 ms during the nested MCP flood': Number(percentile(health.nested, 99).toFixed(1)),
      'issue attack (40 × 100-call batches) statuses': JSON.stringify(attack.statuses),
      'RSS peak during the issue attack MB': attackPeak,
      'capped batches (200 × 10 calls, 200 results) statuses': JSON.stringify(allowed.statuses),
      'largest capped answer KB': Math.round(allowed.bytes / 1024),
      'MCP abuse serve peak RSS MB': peak,
      'capped batches per second': Number((200 / cappedSeconds).toFixed(1)),
      'healthz p50 ms, quiet': Number(percentile(health.quiet, 50).toFixed(1)),
      'healthz p99 ms during MCP abuse': Number(percentile(health.attack, 99).toFixed(1)),
      'healthz p50 ms during capped batches': Number(percentile(health.capped, 50).toFixed(1)),
      'healthz p99 ms during capped batches': Number(percentile(health.capped, 99).toFixed(1)),
    };
  } finally {
    await stop(serve.child);
    await rm(dir, { recursive: true, force: true });
  }
}
