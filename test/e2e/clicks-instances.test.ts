// Several `digest serve` instances counting into one PostgreSQL database: two real serve
// processes on the real PostgreSQL helper's database, readers' clicks and a scanner's HEAD requests spread over both
// at once; once both have stopped (each writing its last batch), the totals are exactly the sum of both — no
// instance's flush overwrote the other's (INSERT … ON CONFLICT DO UPDATE adds). Needs `npm run build`.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { digestClickTokens } from '../../src/subscribers/click-tokens.js';
import { createPostgresDatabase, storeDatabases } from '../support/database.js';
import { announceSkip } from '../support/environment.js';
import { referenceEdition } from '../support/reference-edition.js';
import { type Served, startServe, TEST_SECRET } from '../support/serve.js';

const postgres = storeDatabases().find((database) => database.kind === 'postgresql')!;
if (postgres.skip) announceSkip('e2e/clicks-instances', postgres.skip);

/** Clicks per item on each instance: [item index, on the first, on the second]. */
const PLAN: [number, number, number][] = [
  [0, 40, 35],
  [1, 25, 0],
  [2, 0, 30],
  [5, 12, 18],
];
const HEADS_EACH = 6;

describe.skipIf(postgres.skip !== null)('two digest serve instances on one PostgreSQL', () => {
  it('count clicks together: the totals add up exactly', async () => {
    const database = await createPostgresDatabase();
    const cwd = await mkdtemp(join(tmpdir(), 'digest-clicks-instances-'));
    const edition = referenceEdition();
    const served: Served[] = [];
    try {
      const store = await openStore({ databaseUrl: database.url });
      await store.editions.save(edition);
      await store.editions.markPublished(edition.date, '2026-05-04T08:00:00.000Z');
      await store.close();
      // Behind a proxy: each reader's address is their X-Forwarded-For (one address, one item: no burst).
      const config = { analytics: { mode: 'aggregate', perMinute: 1_000 }, server: { trustProxy: true } };
      await writeFile(join(cwd, 'digest.config.json'), JSON.stringify(config));
      const start = (name: string) =>
        startServe({ cwd, site: join(cwd, 'site'), dataDir: join(cwd, name), databaseUrl: database.url });
      served.push(...(await Promise.all([start('a'), start('b')])));

      const tokens = digestClickTokens({ env: { DIGEST_SECRET: TEST_SECRET } });
      const tokenOf = (index: number) =>
        tokens.item({
          edition: edition.date,
          revision: 1,
          channel: 'mail',
          itemKey: edition.items[index]!.key,
        });
      let reader = 0;
      const fetches: Promise<number>[] = [];
      const follow = (server: Served, index: number, method: 'GET' | 'HEAD') => {
        const address = `198.51.${Math.floor(reader / 250)}.${(reader++ % 250) + 1}`;
        fetches.push(
          fetch(new URL(`r/${tokenOf(index)}`, server.url), {
            method,
            redirect: 'manual',
            headers: { 'x-forwarded-for': address, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64)' },
          }).then((response) => response.status),
        );
      };
      // Interleaved, all in flight together: both instances hold and write batches of the same rows.
      for (const [index, onA, onB] of PLAN)
        for (let n = 0; n < Math.max(onA, onB); n++) {
          if (n < onA) follow(served[0]!, index, 'GET');
          if (n < onB) follow(served[1]!, index, 'GET');
        }
      for (let n = 0; n < HEADS_EACH; n++) for (const server of served) follow(server, 7, 'HEAD');
      const statuses = await Promise.all(fetches);
      expect(new Set(statuses)).toEqual(new Set([302]));

      // Each instance writes what it still holds when it stops.
      for (const server of served) server.child.kill('SIGTERM');
      for (const server of served) expect(await server.exited).toEqual({ code: 0, signal: null });

      const check = await openStore({ databaseUrl: database.url });
      const rows = await check.clicks.byItem(edition.date);
      await check.close();
      const byKey = new Map(rows.map((row) => [row.itemKey, row]));
      for (const [index, onA, onB] of PLAN)
        expect(byKey.get(edition.items[index]!.key)).toMatchObject({ clicks: onA + onB, prefetched: 0 });
      expect(byKey.get(edition.items[7]!.key)).toMatchObject({ clicks: 0, prefetched: 2 * HEADS_EACH });
      expect(rows.reduce((sum, row) => sum + row.clicks, 0)).toBe(160);
    } finally {
      for (const server of served) if (server.child.exitCode === null) server.child.kill('SIGKILL');
      await rm(cwd, { recursive: true, force: true });
      await database.drop();
    }
  }, 120_000);
});
