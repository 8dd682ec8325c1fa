// A week of two hostile papers for the scheduled build inside the real `digest serve`: a loopback
// "arXiv" serving one paragraph of 4,000 links and a watermark of 80,000 "arXiv:" (or pages that never come), a
// folder with a config and a store holding the week, and /healthz asked over and over while the build runs. Used by
// test/e2e/scheduled-build-process.test.ts and bench/scheduled-build.ts.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { latestMonday } from '../../src/core/dates.js';
import type { SourceItem } from '../../src/core/types.js';
import { SCHEDULE_NAMESPACE } from '../../src/editions/scheduler.js';
import { openStore } from '../../src/store/open-store.js';
import { manyLinksPage, watermarkPage } from './hostile-papers.js';
import { type LoopbackRequest, type LoopbackServer, startLoopback } from './loopback.js';
import { type Served, startServe } from './serve.js';

const PAPERS = { '2611.00001': manyLinksPage(4_000), '2611.00002': watermarkPage(80_000) };
const EMPTY_FEED =
  '<?xml version="1.0"?><rss version="2.0"><channel><title>Empty</title><link>https://example.org/</link>' +
  '<description>x</description></channel></rss>';

/** What to undo when done, in reverse order (servers, folders). */
export type Cleanup = (() => Promise<void>)[];

/** The loopback "arXiv": hostile pages at /html/<id>, or pages that never come (`hang`). */
export async function hostileArxiv(hang: boolean, cleanup: Cleanup): Promise<LoopbackServer> {
  const server = await startLoopback((request: LoopbackRequest, response: ServerResponse) => {
    if (request.path === '/feed.xml')
      return void response.writeHead(200, { 'content-type': 'application/rss+xml' }).end(EMPTY_FEED);
    const page = PAPERS[request.path.replace(/^\/html\//, '').replace(/v\d+$/, '') as keyof typeof PAPERS];
    if (!page) return void response.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
    if (hang) return; // the answer never comes: only the build's deadline ends it
    response.writeHead(200, { 'content-type': 'text/html' }).end(page);
  });
  cleanup.push(() => server.close());
  return server;
}

function paper(arxivId: string, week: string): SourceItem {
  const published = new Date(Date.parse(`${week}T00:00:00Z`) - 3 * 86_400_000).toISOString();
  return {
    // Not Hugging Face's: its items get thumbnails from its CDN, which is not on loopback.
    sourceId: 'rss-empty',
    url: `https://arxiv.org/abs/${arxivId}`,
    title: `A hostile paper ${arxivId}`,
    text: 'We study how a service reads pages built to make a parser slow, and keep it answering meanwhile.',
    authors: ['A. Author'],
    arxivId,
    image: null,
    publishedAt: published,
    upvotes: 10,
  };
}

/** A folder with a config, a store holding the week's two papers and a schedule that last ran long ago. */
export async function hostileWeekFolder(
  origin: string,
  timeoutSeconds: number,
  cleanup: Cleanup,
): Promise<{ cwd: string; week: string }> {
  const cwd = await mkdtemp(join(tmpdir(), 'digest-scheduled-process-'));
  cleanup.push(() => rm(cwd, { recursive: true, force: true }));
  const week = latestMonday(new Date());
  const config = {
    sources: [{ id: 'rss-empty', type: 'feed', url: `${origin}/feed.xml` }],
    http: { allowLoopback: true, retries: 0, timeoutMs: 120_000 },
    enrich: {
      arxivApiUrl: `${origin}/api/query`,
      semanticScholarUrl: `${origin}/s2`,
      arxivHtmlUrl: `${origin}/html/`,
    },
    // Every minute: the run due now is this week's, and the last one recorded is years old, so it runs at start.
    schedule: { enabled: true, cron: '* * * * *', buildTimeoutSeconds: timeoutSeconds },
    // Two papers make the week: not thin for this test, which is about reading them.
    selection: { minItems: 1 },
  };
  await writeFile(join(cwd, 'digest.config.json'), JSON.stringify(config));
  const store = await openStore({ dataDir: join(cwd, 'data') });
  try {
    await store.items.upsert(Object.keys(PAPERS).map((id) => paper(id, week)));
    await store.cache.put({
      namespace: SCHEDULE_NAMESPACE,
      key: 'last-run',
      value: {
        scheduledAt: '2020-01-06T07:00:00.000Z',
        week: '2020-01-06',
        status: 'draft',
        finishedAt: '2020-01-06T07:01:00.000Z',
      },
    });
  } finally {
    await store.close();
  }
  return { cwd, week };
}

export async function serveFolder(cwd: string, cleanup: Cleanup): Promise<Served> {
  const served = await startServe({ cwd, site: join(cwd, 'out'), dataDir: join(cwd, 'data') });
  cleanup.push(async () => {
    served.child.kill('SIGTERM');
    await served.exited;
  });
  return served;
}

/** The scheduled run's last line: a draft, a degraded draft, or a failure. */
export function finished(log: string): boolean {
  return /awaiting approval|built degraded|is thin|schedule: the run of/.test(log);
}

export interface Answer {
  status: number;
  body: { status?: string };
  ms: number;
  during: boolean;
}

/** Asks /healthz one request after another until `done()` says the build is over; each answer and its time. */
export async function healthWhile(
  served: Served,
  building: () => boolean,
  done: () => boolean,
): Promise<Answer[]> {
  const answers: Answer[] = [];
  while (!done()) {
    const started = performance.now();
    const response = await fetch(new URL('/healthz', served.url));
    const body = (await response.json()) as { status?: string };
    answers.push({ status: response.status, body, ms: performance.now() - started, during: building() });
    if (served.child.exitCode !== null) throw new Error(`digest serve exited:\n${served.stderr()}`);
  }
  return answers;
}

/**
 * The hostile week's scheduled build inside the real `digest serve` (its deadline 600 s), with /healthz asked the
 * whole time: the loopback arXiv, the folder, the server, the answers once the build has finished and how long it
 * took from the server's start.
 */
export async function watchedHostileBuild(cleanup: Cleanup) {
  const server = await hostileArxiv(false, cleanup);
  const { cwd, week } = await hostileWeekFolder(server.origin, 600, cleanup);
  const served = await serveFolder(cwd, cleanup);
  const log = () => served.stderr();
  const started = performance.now();
  const answers = await healthWhile(
    served,
    () => log().includes('schedule: running the') && !finished(log()),
    () => finished(log()),
  );
  return { server, cwd, week, served, log, answers, buildMs: performance.now() - started };
}
