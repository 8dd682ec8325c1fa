// The desk's actions that build or regenerate run off the server's event loop, in their own process with
// the scheduled build's deadline and memory limit (schedule.buildMemoryMb), on the real `digest serve`. Rebuilding the
// draft works there; adding a hostile post (60 MB of paragraphs, far past a 64 MB heap) is stopped, and the stop is
// reported everywhere: the desk's answer (what happened and what to do), /healthz "degraded" (answering all along),
// the server's log; the store keeps what it had. The next build that works makes /healthz "ok" again.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { weekItems } from '../desk/_desk.js';
import { runDigest } from '../support/cli.js';
import { hostilePost } from '../support/hostile-papers.js';
import { type LoopbackRequest, type LoopbackServer, startLoopback } from '../support/loopback.js';
import { type Served, startServe } from '../support/serve.js';
import { type Answer, httpRequest } from './_http.js';

const WEEK = '2026-05-04';
const EDITOR = { email: 'ed@example.org', password: 'correct horse battery staple' };
// 60 MB of paragraphs (the site allows pages that large here): reading it as text alone needs more than 64 MB, whatever
// the reader's caps (inside V8's heap on Node 20, outside it on Node 26: the limit holds on both).
const HUGE_POST = hostilePost('paragraphs', 60 * 1024 * 1024);

describe('desk actions that build run in their own process (real digest serve)', () => {
  let cwd: string;
  let pages: LoopbackServer;
  let served: Served;
  let session: { cookie: string; csrf: string };
  const url = (path: string) => new URL(path, served.url);

  beforeAll(async () => {
    pages = await startLoopback((request: LoopbackRequest, response: ServerResponse) => {
      if (request.path === '/huge')
        return void response.writeHead(200, { 'content-type': 'text/html' }).end(HUGE_POST);
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
    });
    cwd = await mkdtemp(join(tmpdir(), 'digest-desk-process-'));
    await writeFile(
      join(cwd, 'digest.config.json'),
      JSON.stringify({
        name: 'Desk Process Digest',
        itemsPerEdition: 4,
        publish: { baseUrl: 'https://digest.example/' },
        enrich: { enabled: false },
        http: { allowLoopback: true, retries: 0, maxBytes: 100 * 1024 * 1024 },
        schedule: { enabled: false, buildMemoryMb: 64, buildTimeoutSeconds: 120 },
      }),
    );
    const store = await openStore({ dataDir: join(cwd, 'data') });
    try {
      await store.items.upsert(weekItems());
    } finally {
      await store.close();
    }
    const added = await runDigest(['editors', 'add', EDITOR.email, '--data-dir', 'data'], {
      cwd,
      env: { DIGEST_EDITOR_PASSWORD: EDITOR.password },
    });
    expect(added.code, added.stderr).toBe(0);
    served = await startServe({ cwd, site: join(cwd, 'site'), dataDir: join(cwd, 'data') });
    session = await signIn();
  }, 180_000);

  afterAll(async () => {
    if (served?.child.exitCode === null) {
      served.child.kill('SIGTERM');
      await served.exited;
    }
    await pages?.close();
    if (cwd) await rm(cwd, { recursive: true, force: true });
  });

  async function signIn(): Promise<{ cookie: string; csrf: string }> {
    const form = await httpRequest(url('admin/login'));
    const loginCookie = String(form.headers['set-cookie'] ?? '').split(';')[0]!;
    const token = /name="csrf" value="([^"]+)"/.exec(form.text)?.[1] ?? '';
    const signedIn = await httpRequest(url('admin/login'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: loginCookie },
      body: new URLSearchParams({ csrf: token, email: EDITOR.email, password: EDITOR.password }).toString(),
    });
    expect(signedIn.status).toBe(303);
    const cookie = ([] as string[])
      .concat(signedIn.headers['set-cookie'] ?? [])
      .find((value) => value.startsWith('digest_desk='))!
      .split(';')[0]!;
    const board = await httpRequest(url(`admin/week/${WEEK}`), { headers: { cookie } });
    const csrf = /name="csrf" value="([^"]+)"/.exec(board.text)?.[1] ?? '';
    expect(csrf).not.toBe('');
    return { cookie, csrf };
  }

  const post = (action: string, fields: Record<string, string> = {}) =>
    httpRequest(url(`admin/week/${WEEK}/${action}`), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: session.cookie },
      body: new URLSearchParams({ csrf: session.csrf, ...fields }).toString(),
    });
  /** The server's log without its request lines. */
  const log = () =>
    served
      .stderr()
      .split('\n')
      .filter((line) => !line.includes('"msg":"request"'))
      .join('\n');
  const health = async () => JSON.parse((await httpRequest(url('healthz'))).text) as { status: string };

  /** Runs `action` while /healthz is asked one request after another; the answer and every /healthz time. */
  async function whileHealth(action: Promise<Answer>): Promise<{ answer: Answer; times: number[] }> {
    let done = false;
    const answer = action.finally(() => {
      done = true;
    });
    const times: number[] = [];
    while (!done) {
      const started = performance.now();
      const probe = await httpRequest(url('healthz'));
      expect(probe.status).toBe(200);
      times.push(performance.now() - started);
    }
    return { answer: await answer, times };
  }

  it('rebuilds the draft and regenerates an item in a process of their own', async () => {
    const rebuilt = await post('rebuild');
    expect(rebuilt.status, rebuilt.text).toBe(303);
    expect(rebuilt.headers.location).toContain('done=rebuilt');
    // The build's own log lines, forwarded by the server: it ran in the desk's build process.
    expect(log()).toMatch(/desk build: /);
    const board = await httpRequest(url(`admin/week/${WEEK}`), { headers: { cookie: session.cookie } });
    expect(board.text).toContain('Paper 1 on language model agents');
    expect((await health()).status).toBe('ok');
    // Regenerating an item is a job too: the same process, its audit written from there.
    const lines = log()
      .split('\n')
      .filter((line) => line.includes('desk build: ')).length;
    const key = /name="key" value="([^"]+)"/.exec(board.text)?.[1] ?? '';
    const regenerated = await post('regenerate', { key, writer: 'extractive' });
    expect(regenerated.status, regenerated.text).toBe(303);
    expect(regenerated.headers.location).toContain('done=regenerated');
    expect(
      log()
        .split('\n')
        .filter((line) => line.includes('desk build: ')).length,
    ).toBeGreaterThan(lines);
  }, 120_000);

  it('stops an add past its memory limit: the desk says why and what to do, /healthz degraded, the log, no change', async () => {
    const { answer, times } = await whileHealth(post('add', { input: `${pages.origin}/huge` }));
    expect(answer.status).toBe(503);
    expect(answer.text).toContain('The build was stopped: out of memory');
    expect(answer.text).toContain('schedule.buildMemoryMb');
    expect(answer.text).toContain('skip the item');
    // The page was fetched, and the server answered all along (each /healthz asserted 200 above).
    expect(pages.requests.some((request) => request.path === '/huge')).toBe(true);
    expect(times.length).toBeGreaterThan(0);
    expect(log()).toMatch(
      /desk: the desk's add of 2026-05-04 was stopped: it needed more than its 64 MB \(schedule\.buildMemoryMb\)/,
    );
    expect(await health()).toEqual({ status: 'degraded', database: 'ok' });

    // A build that works turns /healthz back to ok.
    expect((await post('rebuild')).status).toBe(303);
    expect((await health()).status).toBe('ok');
    served.child.kill('SIGTERM');
    await served.exited;
    const store = await openStore({ dataDir: join(cwd, 'data') });
    try {
      const edition = await store.editions.get(WEEK);
      expect(edition?.items.length).toBe(4);
      expect(edition?.items.some((item) => item.url.includes('/huge'))).toBe(false);
      const audit = await store.desk.listAudit({ week: WEEK });
      expect(audit.map((entry) => entry.action)).not.toContain('add');
    } finally {
      await store.close();
    }
  }, 180_000);
});
