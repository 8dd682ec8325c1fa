// One database, many commands: while the real `digest serve` process holds a PGlite data folder, `digest list`,
// `digest pin` and `digest build` (the real CLI) reach its database through the socket it shares, their writes land
// in that one database, and the server keeps answering meanwhile. After SIGTERM the socket and its share file are
// gone and commands open the folder directly again.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_WEEK } from '../../src/sample/sample-week.js';
import { runDigest } from '../support/cli.js';
import { type Served, startServe } from '../support/serve.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function serveSample(cwd: string) {
  return startServe({ cwd, site: 'site', dataDir: 'data' });
}

interface ListJson {
  candidates: { key: string; pinned: boolean; picked: boolean }[];
}

describe('digest serve shares its embedded database with other commands', () => {
  let cwd: string;
  let served: Served;
  const data = () => join(cwd, 'data');
  const cli = (args: string[]) => runDigest([...args, '--data-dir', 'data'], { cwd });

  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) {
      throw new Error('dist/ is not built: run "npm run build" first');
    }
    cwd = await mkdtemp(join(tmpdir(), 'digest-shared-'));
    const demo = await runDigest(['demo', '--out', 'site', '--data-dir', 'data'], { cwd });
    expect(demo.code, demo.stderr).toBe(0);
    served = await serveSample(cwd);
  }, 180_000);

  afterAll(async () => {
    if (served && served.child.exitCode === null && served.child.signalCode === null)
      served.child.kill('SIGKILL');
    if (cwd) await rm(cwd, { recursive: true, force: true });
  });

  it('publishes a private socket and share file in the data folder', () => {
    const share = JSON.parse(readFileSync(join(data(), 'digest.serve.json'), 'utf8')) as { pid: number };
    expect(share.pid).toBe(served.child.pid);
    expect(statSync(join(data(), 'digest.serve.json')).mode & 0o777).toBe(0o600);
    const socket = statSync(join(data(), '.s.PGSQL.5432'));
    expect(socket.isSocket()).toBe(true);
    expect(socket.mode & 0o077).toBe(0);
    expect(served.stderr()).toMatch(/Other digest commands reach this database through .*\.s\.PGSQL\.5432/);
  });

  it('a second digest serve on the folder exits 2 naming the holder, which keeps serving', async () => {
    const port = new URL(served.url).port;
    const second = serveSample(cwd);
    await expect(second).rejects.toThrow(/exited \(2\) before listening/);
    await expect(second).rejects.toThrow(
      new RegExp(
        `held by digest serve \\(pid ${served.child.pid}, serving http://127\\.0\\.0\\.1:${port}/\\): one server per embedded database`,
      ),
    );
    expect(await (await fetch(new URL('healthz', served.url))).json()).toEqual({
      status: 'ok',
      database: 'ok',
    });
    expect(JSON.parse(readFileSync(join(data(), 'digest.serve.json'), 'utf8')).pid).toBe(served.child.pid);
  }, 60_000);

  it('lets list, pin and build run while serving, all on the one database, the server answering meanwhile', async () => {
    const listed = await cli(['list', '--week', SAMPLE_WEEK, '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stderr).toMatch(/held by digest serve \(pid \d+\); using its database through/);
    const before = JSON.parse(listed.stdout) as ListJson;
    const unpicked = before.candidates.find((row) => !row.picked && !row.pinned);
    expect(unpicked, 'the sample week has candidates left out of the edition').toBeDefined();

    const pinned = await cli(['pin', unpicked!.key, '--week', SAMPLE_WEEK]);
    expect(pinned.code, pinned.stderr).toBe(0);
    expect(pinned.stdout).toContain(`Pinned ${unpicked!.key}`);

    // A build and requests to the server at the same time: both go through the one PGlite session, in turn.
    const [built, health] = await Promise.all([
      cli(['build', '--week', SAMPLE_WEEK, '--no-ingest', '--offline', '--no-enrich', '--out', 'drafts']),
      Promise.all([...Array(5)].map(() => fetch(new URL('healthz', served.url)).then((r) => r.json()))),
    ]);
    expect(built.code, built.stderr).toBe(0);
    expect(health).toEqual([...Array(5)].map(() => ({ status: 'ok', database: 'ok' })));
    const edition = JSON.parse(readFileSync(join(cwd, 'drafts', SAMPLE_WEEK, 'edition.json'), 'utf8')) as {
      items: { key: string }[];
    };
    expect(edition.items.map((item) => item.key)).toContain(unpicked!.key);

    const after = JSON.parse((await cli(['list', '--week', SAMPLE_WEEK, '--json'])).stdout) as ListJson;
    expect(after.candidates.find((row) => row.key === unpicked!.key)).toMatchObject({
      pinned: true,
      picked: true,
    });
  }, 180_000);

  it('removes the socket and share file on SIGTERM; commands then open the folder directly', async () => {
    served.child.kill('SIGTERM');
    expect(await served.exited).toEqual({ code: 0, signal: null });
    expect(existsSync(join(data(), 'digest.serve.json'))).toBe(false);
    expect(existsSync(join(data(), '.s.PGSQL.5432'))).toBe(false);
    const listed = await cli(['list', '--week', SAMPLE_WEEK, '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stderr).not.toMatch(/held by digest serve/);
    // The writes made through the server are in the folder itself.
    expect((JSON.parse(listed.stdout) as ListJson).candidates.filter((row) => row.pinned)).toHaveLength(1);
  }, 60_000);
});
