// The weekly build inside the real `digest serve` runs in its own process. A loopback "arXiv" serves the
// hostile pages (one paragraph of 4,000 links; a watermark of 80,000 "arXiv:") for the week's two papers; /healthz is
// asked over and over while the scheduled build runs and must answer every time. A build past its deadline
// (schedule.buildTimeoutSeconds) is stopped, logged, turns /healthz "degraded", and leaves no edition behind.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import {
  type Cleanup,
  finished,
  healthWhile,
  hostileArxiv,
  hostileWeekFolder,
  serveFolder,
  watchedHostileBuild,
} from '../support/hostile-week.js';

let cleanup: Cleanup = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => {});
  cleanup = [];
});

describe('the scheduled build inside digest serve runs in its own process', () => {
  it('reads the hostile pages while /healthz answers every time, and leaves a draft', async () => {
    const { server, week, log, answers } = await watchedHostileBuild(cleanup);
    expect(log()).toContain(`schedule: the edition of ${week} is a draft awaiting approval`);
    // The build read both hostile pages (its own log lines, forwarded by the server).
    expect(server.requests.filter((request) => request.path.startsWith('/html/')).length).toBe(2);
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(answers.filter((answer) => answer.during).length).toBeGreaterThan(3);
    expect(answers.at(-1)?.body.status).toBe('ok');
  }, 120_000);

  it('stops a build past its deadline, says so in the log and on /healthz, and keeps no edition', async () => {
    const server = await hostileArxiv(true, cleanup);
    const { cwd, week } = await hostileWeekFolder(server.origin, 4, cleanup);
    const served = await serveFolder(cwd, cleanup);
    const log = () => served.stderr();
    await healthWhile(
      served,
      () => true,
      () => finished(log()),
    );
    expect(log()).toMatch(/was stopped: it ran past its deadline of 4 s \(schedule\.buildTimeoutSeconds\)/);
    const health = (await (await fetch(new URL('/healthz', served.url))).json()) as { status: string };
    expect(health.status).toBe('degraded');
    served.child.kill('SIGTERM');
    await served.exited;
    const store = await openStore({ dataDir: join(cwd, 'data') });
    try {
      expect(await store.editions.get(week)).toBeNull();
    } finally {
      await store.close();
    }
  }, 120_000);
});
