// A thin edition (fewer items than selection.minItems) through the CLI: `build` builds it and exits 3 saying why,
// `publish` and `send` refuse it with exit 3 until --allow-thin, so `build && publish && send` never mails it.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { WEEK, weekItems } from '../desk/_desk.js';
import { runDigest } from '../support/cli.js';
import { seedPgliteDataDir } from '../support/database.js';

describe('a thin edition on the command line', () => {
  let cwd: string;

  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), 'digest-thin-'));
    await seedPgliteDataDir(join(cwd, 'data'));
    const store = await openStore({ dataDir: join(cwd, 'data') });
    try {
      // Three sources failed: one item is stored for a week that asks for twelve.
      await store.items.upsert(weekItems(1));
    } finally {
      await store.close();
    }
    await writeFile(
      join(cwd, 'digest.config.json'),
      JSON.stringify({
        itemsPerEdition: 12,
        publish: { baseUrl: 'https://digest.example/' },
        enrich: { enabled: false },
      }),
    );
  });
  afterAll(async () => rm(cwd, { recursive: true, force: true }));

  it('build exits 3 and says why; publish and send refuse it with 3 until --allow-thin', async () => {
    const built = await runDigest(['build', '--week', WEEK, '--offline'], { cwd });
    expect(built.code, built.stderr).toBe(3);
    expect(built.stderr).toContain('The edition is thin: 1 item; at least 6 expected (selection.minItems)');

    const refused = await runDigest(['publish', '--week', WEEK, '--out', 'site'], { cwd });
    expect(refused.code, refused.stderr).toBe(3);
    expect(refused.stderr).toContain(`Edition ${WEEK} was not published: it is thin — 1 item`);
    expect(refused.stderr).toContain('--allow-thin');

    const published = await runDigest(['publish', '--week', WEEK, '--out', 'site', '--allow-thin'], { cwd });
    expect(published.code, published.stderr).toBe(0);

    const send = await runDigest(['send', '--week', WEEK], { cwd });
    expect(send.code, send.stderr).toBe(3);
    expect(send.stderr).toContain(`Edition ${WEEK} was not sent: it is thin — 1 item`);
  }, 120_000);

  it('selection.minItems sets the bar (0: never thin); a bad value is exit 2 naming the field', async () => {
    const config = (minItems: unknown) =>
      writeFile(
        join(cwd, 'digest.config.json'),
        JSON.stringify({
          itemsPerEdition: 12,
          selection: { minItems },
          enrich: { enabled: false },
          // A dry run reads the send settings and connects nowhere.
          publish: {
            baseUrl: 'https://digest.example/',
            email: { smtp: { host: '127.0.0.1', port: 9, requireTls: false } },
          },
        }),
      );
    await config('many');
    const bad = await runDigest(['send', '--week', WEEK, '--dry-run'], { cwd });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('selection.minItems');
    await config(0);
    const dryRun = await runDigest(['send', '--week', WEEK, '--dry-run'], { cwd });
    expect(dryRun.code, dryRun.stderr).toBe(0);
  }, 60_000);
});
