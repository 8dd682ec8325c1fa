// Feeds are read on a worker thread (_feed-worker.ts): parsing a large feed takes a core for a while, and on
// this thread it would hold up the store's writes and every request `digest serve` is answering. One worker: on
// a small machine the other core is this thread's, writing the items of the feed read before.
// A small feed is read here — the hop costs more than it saves. Should the worker fail to start (no module to
// run), feeds are read here as before: the same function, the same result.
import { createRequire } from 'node:module';
import { extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type FeedCapture, type FeedReadRequest, readFeed } from './_feed-read.js';

const READ_HERE_BELOW_BYTES = 64 * 1024;

interface Waiting {
  request: FeedReadRequest;
  resolve: (capture: FeedCapture) => void;
  reject: (error: Error) => void;
}

type Answer = { id: number; capture: FeedCapture } | { id: number; error: string };

let worker: Worker | null = null;
let online = false;
let unavailable = false;
let nextId = 0;
const waiting = new Map<number, Waiting>();

/** The feed's items and warnings, read on the worker thread when it is large; rejects as readFeed() throws. */
export function readFeedOffThread(request: FeedReadRequest): Promise<FeedCapture> {
  const thread = request.body.byteLength < READ_HERE_BELOW_BYTES ? null : feedWorker();
  if (!thread) return readHere(request);
  return new Promise((resolve, reject) => {
    const id = nextId++;
    waiting.set(id, { request, resolve, reject });
    // Held open only while a feed is being read: an idle worker never keeps a command from exiting.
    if (waiting.size === 1) thread.ref();
    thread.postMessage({ id, request });
  });
}

async function readHere(request: FeedReadRequest): Promise<FeedCapture> {
  return readFeed(request);
}

function feedWorker(): Worker | null {
  if (worker || unavailable) return worker;
  const here = fileURLToPath(import.meta.url);
  // From sources (tsx, tests) the worker is a .ts file and needs the same loader; from dist/ (a chunk) the .js
  // module. Up and into sources/: the same folder from src/sources/ and from dist/chunks/ (scripts/build.mjs).
  const typescript = extname(here) === '.ts';
  const script = join(here, '..', '..', 'sources', `_feed-worker${typescript ? '.ts' : '.js'}`);
  try {
    worker = typescript ? typescriptWorker(script) : new Worker(script);
  } catch {
    unavailable = true;
    return null;
  }
  const started = worker;
  started.unref();
  started.on('message', (answer: Answer | { ready: true }) => {
    if ('ready' in answer) online = true;
    else settle(started, answer);
  });
  started.on('error', (error) => stopped(started, error));
  started.on('exit', (code) => stopped(started, new Error(`the feed reader stopped (code ${code})`)));
  return started;
}

/** From sources (tsx, tests): the worker registers the same loader, then imports the .ts module. */
function typescriptWorker(script: string): Worker {
  const tsx = pathToFileURL(
    join(createRequire(import.meta.url).resolve('tsx/package.json'), '..', 'dist', 'esm', 'api', 'index.mjs'),
  ).href;
  const code = `import(${JSON.stringify(tsx)}).then((tsx) => tsx.tsImport(${JSON.stringify(pathToFileURL(script).href)}, ${JSON.stringify(tsx)}));`;
  return new Worker(code, { eval: true });
}

function settle(thread: Worker, answer: Answer): void {
  const entry = waiting.get(answer.id);
  waiting.delete(answer.id);
  if (!waiting.size) thread.unref();
  if (!entry) return;
  if ('error' in answer) entry.reject(new Error(answer.error));
  else entry.resolve(answer.capture);
}

/** A worker that never became ready cannot run: its feeds are read on this thread. One that did: the next starts anew. */
function stopped(thread: Worker, error: Error): void {
  if (worker !== thread) return;
  worker = null;
  if (!online) unavailable = true;
  online = false;
  const entries = [...waiting.values()];
  waiting.clear();
  for (const entry of entries) {
    if (unavailable) readHere(entry.request).then(entry.resolve, entry.reject);
    else entry.reject(error);
  }
}
