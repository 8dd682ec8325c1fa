// An open-loop load generator, run as a process of its own (never on the measured server's thread): `clients`
// keep-alive clients, each with its own connection and its own source address, each sending one request every
// `intervalMs` on a schedule of its own (client i starts i/clients of an interval after client 0, so the requests
// of all clients are spread evenly over time, not released in bursts). A request's latency is counted from the time
// it was *scheduled*, not from when it went out: a client still waiting for its last answer sends late, and that
// wait is counted (no coordinated omission). Each client's address is an `X-Forwarded-For` header, which the server
// reads only with `server.trustProxy: true` — as behind a reverse proxy, where every reader has their own address.
//
// Usage: node _open-loop.mjs '<json>' with { base, paths: string[], clients, intervalMs, seconds, warmSeconds }.
// Client i asks for paths[i % paths.length]; with `pathsFile` (one path a line, for lists too long for an argument)
// and `rotate`, its n-th request asks for paths[(i + n × clients) % paths.length], so every path is asked once in
// turn. Prints one JSON line: latencies (ms) of the measured requests —
// p50, p99, max — their statuses, errors, and how late the generator itself fired (its own share of any latency).
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';

const options = JSON.parse(process.argv[2] ?? '{}');
const { base, clients, intervalMs, seconds, warmSeconds = 0, rotate = false } = options;
const paths = options.pathsFile
  ? readFileSync(options.pathsFile, 'utf8').split('\n').filter(Boolean)
  : options.paths;
if (!base || !Array.isArray(paths) || paths.length === 0 || !clients || !intervalMs || !seconds)
  throw new Error('usage: _open-loop.mjs {"base","paths","clients","intervalMs","seconds","warmSeconds"}');

const url = new URL(base);
const started = performance.now() + 100;
const measureFrom = started + warmSeconds * 1000;
const end = measureFrom + seconds * 1000;
const latencies = [];
const statuses = {};
let errors = 0;
let lateMax = 0;
/** The slowest answer and when (s into the measured part) it was scheduled: where to look for a stall. */
let worst = { ms: 0, atS: 0 };

function client(index) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  // Documentation range (TEST-NET-2 and -3): 100 distinct readers, none a real address.
  const address = `198.51.100.${index + 1}`;
  const prefix = url.pathname.replace(/\/$/, '');
  const pathOf = (turn) => `${prefix}/${paths[(index + (rotate ? turn * clients : 0)) % paths.length]}`;
  const phase = (index * intervalMs) / clients;
  let next = 0;
  let open = 0;
  const schedule = () => {
    const turn = next;
    const at = started + phase + turn * intervalMs;
    next++;
    if (at >= end) return;
    setTimeout(() => fire(at, turn), Math.max(0, Math.ceil(at - performance.now())));
  };
  const fire = (at, turn) => {
    lateMax = Math.max(lateMax, at >= measureFrom ? performance.now() - at : 0);
    schedule();
    open++;
    // A timer may fire a little early: then the request is timed from when it went out, never before.
    const from = Math.min(at, performance.now());
    const done = (status) => {
      open--;
      if (at < measureFrom) return;
      const latency = performance.now() - from;
      latencies.push(latency);
      if (latency > worst.ms) worst = { ms: latency, atS: (at - measureFrom) / 1000 };
      if (status === null) errors++;
      else statuses[status] = (statuses[status] ?? 0) + 1;
    };
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: pathOf(turn),
        agent,
        headers: { 'x-forwarded-for': address },
      },
      (res) => {
        res.resume();
        res.once('end', () => done(res.statusCode ?? 0));
      },
    );
    req.once('error', () => done(null));
    req.end();
  };
  schedule();
  return () => open;
}

const pending = Array.from({ length: clients }, (_, index) => client(index));
await new Promise((resolve) => setTimeout(resolve, end - performance.now() + 50));
// Answers still missing after the last schedule are waited for (up to 10 s), so a stalled server shows.
const deadline = performance.now() + 10_000;
while (pending.some((open) => open() > 0) && performance.now() < deadline)
  await new Promise((resolve) => setTimeout(resolve, 20));

latencies.sort((a, b) => a - b);
const at = (share) => latencies[Math.min(latencies.length - 1, Math.floor(share * latencies.length))] ?? 0;
const round = (ms) => Math.round(ms * 10) / 10;
process.stdout.write(
  `${JSON.stringify({
    requests: latencies.length,
    p50Ms: round(at(0.5)),
    p99Ms: round(at(0.99)),
    maxMs: round(latencies.at(-1) ?? 0),
    statuses,
    errors,
    unanswered: pending.reduce((sum, open) => sum + open(), 0),
    generatorLateMaxMs: round(lateMax),
    worstAtS: round(worst.atS),
  })}\n`,
);
process.exit(0);
