// The real CLI on PostgreSQL (DATABASE_URL): the sample week ingested, built, listed, rebuilt and published.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Edition } from '../../src/core/types.js';
import { runDigest } from '../support/cli.js';
import { createPostgresDatabase, storeDatabases } from '../support/database.js';
import { announceSkip } from '../support/environment.js';

const postgres = storeDatabases().find((database) => database.kind === 'postgresql')!;
if (postgres.skip) announceSkip('e2e/postgres', postgres.skip);

describe.skipIf(postgres.skip !== null)('digest on PostgreSQL', () => {
  it('builds, lists, rebuilds and publishes the sample week with DATABASE_URL', async () => {
    const database = await createPostgresDatabase();
    const cwd = mkdtempSync(join(tmpdir(), 'digest-pg-'));
    const env = { DATABASE_URL: database.url };
    try {
      const demo = await runDigest(['demo'], { cwd, env });
      expect(demo.code, demo.stderr).toBe(0);
      const edition = JSON.parse(
        readFileSync(join(cwd, 'drafts', '2026-05-04', 'edition.json'), 'utf8'),
      ) as Edition;
      expect(edition.items).toHaveLength(12);
      // The PGlite folder of the demo was never created: everything went to PostgreSQL.
      expect(() => readFileSync(join(cwd, 'data', 'PG_VERSION'))).toThrow();

      const list = await runDigest(['list', '--week', '2026-05-04', '--json'], { cwd, env });
      const rows = (JSON.parse(list.stdout) as { candidates: { key: string }[] }).candidates;
      expect(rows.length).toBeGreaterThanOrEqual(118);
      expect(new Set(rows.map((row) => row.key)).size).toBe(rows.length);

      const again = await runDigest(['demo'], { cwd, env });
      expect(again.code, again.stderr).toBe(0);
      const relist = await runDigest(['list', '--week', '2026-05-04', '--json'], { cwd, env });
      expect((JSON.parse(relist.stdout) as { candidates: unknown[] }).candidates).toHaveLength(rows.length);

      const publish = await runDigest(
        ['publish', '--week', '2026-05-04', '--base-url', 'https://digest.example.com'],
        {
          cwd,
          env,
        },
      );
      expect(publish.code, publish.stderr).toBe(0);
      expect(readFileSync(join(cwd, 'out', 'feed.xml'), 'utf8')).toContain(
        edition.title.replace(/&/g, '&amp;'),
      );
    } finally {
      rmSync(cwd, { recursive: true, force: true });
      await database.drop();
    }
  }, 120_000);
});
