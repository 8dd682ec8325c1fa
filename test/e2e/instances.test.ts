// Many instances, one newsletter: three real `digest serve` processes on one PostgreSQL database, each with its own
// folder (as on three machines, nothing shared but the database), behind a proxy (trustProxy). A publish made on
// the desk of one and a correction made on the desk of another are served by all three within 5 s, whole; a fourth
// instance started afterwards serves the corrected site before it answers at all, and /healthz names the same
// generation on every instance. Failed sign-ins spread over the three are counted once: three times the limit,
// round-robin, locks the account exactly as the same attempts on one instance do. Needs `npm run build`.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/desk/passwords.js';
import { openStore } from '../../src/store/open-store.js';
import { createPostgresDatabase, storeDatabases } from '../support/database.js';
import { announceSkip } from '../support/environment.js';
import { referenceEdition } from '../support/reference-edition.js';
import { type Served, startServe } from '../support/serve.js';
import { httpRequest } from './_http.js';

const postgres = storeDatabases().find((database) => database.kind === 'postgresql')!;
if (postgres.skip) announceSkip('e2e/instances', postgres.skip);

const EDITOR = { email: 'ed@example.org', password: 'correct horse battery staple' };
const CORRECTED_TITLE = 'Agents in Production, Safety Under Pressure (corrected)';
const CONVERGES_MS = 5_000;

describe.skipIf(postgres.skip !== null)('three digest serve instances on one PostgreSQL', () => {
  const edition = referenceEdition();
  const week = edition.date;
  let database: { url: string; drop(): Promise<void> };
  let cwd: string;
  const served: Served[] = [];
  const start = (name: string) =>
    startServe({
      cwd,
      site: join(cwd, name, 'site'),
      dataDir: join(cwd, name, 'data'),
      databaseUrl: database.url,
    });

  beforeAll(async () => {
    database = await createPostgresDatabase();
    cwd = await mkdtemp(join(tmpdir(), 'digest-instances-'));
    const store = await openStore({ databaseUrl: database.url });
    try {
      await store.editions.save(edition);
      await store.editors.add(EDITOR.email, await hashPassword(EDITOR.password));
    } finally {
      await store.close();
    }
    const config = {
      publish: { baseUrl: 'https://digest.example/' },
      enrich: { enabled: false },
      schedule: { enabled: false },
      server: { trustProxy: true },
    };
    await writeFile(join(cwd, 'digest.config.json'), JSON.stringify(config));
    served.push(...(await Promise.all(['a', 'b', 'c'].map(start))));
  }, 180_000);

  afterAll(async () => {
    for (const server of served) if (server.child.exitCode === null) server.child.kill('SIGTERM');
    for (const server of served) await server.exited;
    if (cwd) await rm(cwd, { recursive: true, force: true });
    await database?.drop();
  });

  /** Until every instance's page of the week satisfies `check`: the milliseconds it took, or fails after 5 s. */
  async function allServe(path: string, check: (page: string) => boolean): Promise<number> {
    const started = performance.now();
    const pending = new Set(served);
    while (pending.size > 0) {
      for (const server of [...pending]) {
        const page = await httpRequest(new URL(path, server.url));
        if (page.status === 200 && check(page.text)) pending.delete(server);
      }
      if (performance.now() - started > CONVERGES_MS) break;
    }
    expect(
      [...pending].map((server) => server.url),
      'instances still serving the old site',
    ).toEqual([]);
    return performance.now() - started;
  }

  async function signIn(server: Served, from: string): Promise<{ cookie: string; csrf: string }> {
    const form = await loginForm(server);
    const signedIn = await attempt(server, form, EDITOR.password, from);
    expect(signedIn.status).toBe(303);
    const cookie = ([] as string[])
      .concat(signedIn.headers['set-cookie'] ?? [])
      .find((value) => value.startsWith('digest_desk='))!
      .split(';')[0]!;
    const board = await httpRequest(new URL(`admin/week/${week}`, server.url), { headers: { cookie } });
    return { cookie, csrf: /name="csrf" value="([^"]+)"/.exec(board.text)?.[1] ?? '' };
  }

  async function loginForm(server: Served) {
    const form = await httpRequest(new URL('admin/login', server.url));
    return {
      cookie: String(form.headers['set-cookie'] ?? '').split(';')[0]!,
      token: /name="csrf" value="([^"]+)"/.exec(form.text)?.[1] ?? '',
    };
  }

  const attempt = (server: Served, form: { cookie: string; token: string }, password: string, from: string) =>
    httpRequest(new URL('admin/login', server.url), {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: form.cookie,
        'x-forwarded-for': from,
      },
      body: new URLSearchParams({ csrf: form.token, email: EDITOR.email, password }).toString(),
    });

  const post = (server: Served, session: { cookie: string; csrf: string }, action: string, fields = {}) =>
    httpRequest(new URL(`admin/week/${week}/${action}`, server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: session.cookie },
      body: new URLSearchParams({ csrf: session.csrf, ...fields }).toString(),
    });

  it('serves a publish made on one instance from all three within 5 s', async () => {
    for (const server of served)
      expect((await httpRequest(new URL(`${week}/`, server.url))).status).toBe(404);
    const published = await post(served[0]!, await signIn(served[0]!, '192.0.2.1'), 'approve');
    expect(published.status, published.text).toBe(303);
    expect(published.headers.location).toContain('done=published');
    const took = await allServe(`${week}/`, (page) => page.includes(edition.title));
    expect(took).toBeLessThan(CONVERGES_MS);
    // Byte for byte the publishing instance's site: the page, the feed and the week's mail files.
    for (const file of [`${week}/index.html`, 'feed.xml', `${week}/email.html`]) {
      const copies = await Promise.all(
        ['a', 'b', 'c'].map((name) => readFile(join(cwd, name, 'site', file), 'utf8')),
      );
      expect(new Set(copies).size, file).toBe(1);
    }
  }, 60_000);

  it('serves a correction made on another instance from all three, the earlier revision kept', async () => {
    const fields: Record<string, string> = {
      reason: 'A title said too little.',
      title: CORRECTED_TITLE,
      intro: edition.intro,
    };
    edition.items.forEach((item, index) => {
      fields[`title-${index}`] = item.title;
      fields[`summary-${index}`] = item.summary;
      item.takeaways.forEach((takeaway, n) => {
        fields[`takeaway${n + 1}-${index}`] = takeaway;
      });
      fields[`level-${index}`] = item.level;
    });
    const corrected = await post(served[1]!, await signIn(served[1]!, '192.0.2.2'), 'correct', fields);
    expect(corrected.status, corrected.text).toBe(303);
    expect(corrected.headers.location).toContain('done=corrected');
    const took = await allServe(`${week}/`, (page) => page.includes(CORRECTED_TITLE));
    expect(took).toBeLessThan(CONVERGES_MS);
    await allServe(`${week}-r1/`, (page) => page.includes(edition.title) && !page.includes(CORRECTED_TITLE));
    const generations = await Promise.all(served.map(async (server) => health(server)));
    expect(new Set(generations.map((answer) => answer.site.generation)).size).toBe(1);
    expect(generations[0]).toMatchObject({ status: 'ok', site: { generation: 2 } });
  }, 60_000);

  it('starts a fourth instance that serves the corrected site before it answers anything', async () => {
    const fourth = await start('d');
    served.push(fourth);
    // The first request after it listens: no waiting, no retry.
    const page = await httpRequest(new URL(`${week}/`, fourth.url));
    expect(page.status).toBe(200);
    expect(page.text).toContain(CORRECTED_TITLE);
    expect(await health(fourth)).toMatchObject({ status: 'ok', site: { generation: 2 } });
  }, 60_000);

  it('counts failed sign-ins once across the instances: 3 × the limit locks as on one', async () => {
    // Five failures per (address, account) pair are allowed in a burst (desk/auth.ts); fifteen go round the three.
    const form = await loginForm(served[0]!);
    const statuses: number[] = [];
    for (let n = 0; n < 15; n++)
      statuses.push((await attempt(served[n % 3]!, form, 'a wrong password', '198.51.100.7')).status);
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(10).fill(429)]);
    // Locked on every instance, the fourth too, even for the right password; another address is not.
    for (const server of served)
      expect((await attempt(server, form, EDITOR.password, '198.51.100.7')).status).toBe(429);
    expect((await attempt(served[2]!, form, EDITOR.password, '198.51.100.8')).status).toBe(303);
  }, 60_000);
});

async function health(server: Served): Promise<{ status: string; site: { generation: number | null } }> {
  return JSON.parse((await httpRequest(new URL('healthz', server.url))).text);
}
