// The real `digest serve` process on a data folder with published editions: the JSON API and /mcp answer over
// loopback beside the site, and the process still stops cleanly.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, seedArchiveDataDir } from '../support/published-archive.js';
import { type Served, startServe } from '../support/serve.js';
import { publishTempSite, type TempSite } from '../support/temp-site.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('digest serve with the archive API (real process)', () => {
  let site: TempSite;
  let cwd: string;
  let served: Served;
  let url: string;

  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) {
      throw new Error('dist/ is not built: run "npm run build" first');
    }
    site = await publishTempSite();
    cwd = await mkdtemp(join(tmpdir(), 'digest-serve-api-'));
    await seedArchiveDataDir(join(cwd, 'data'));
    await writeFile(join(cwd, 'digest.config.json'), JSON.stringify({ publish: { baseUrl: BASE_URL } }));
    served = await startServe({ cwd, site: site.dir, dataDir: 'data' });
    url = served.url;
  }, 120_000);

  afterAll(async () => {
    const child = served?.child;
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await site?.remove();
    if (cwd) await rm(cwd, { recursive: true, force: true });
  });

  it('answers the JSON API from the store, beside the static site', async () => {
    const search = await fetch(new URL('api/v1/search?q=goblins&limit=2', url));
    expect(search.status).toBe(200);
    expect(search.headers.get('access-control-allow-origin')).toBe('*');
    const answer = (await search.json()) as {
      results: { edition: { permalink: string } }[];
      nextCursor: string;
    };
    expect(answer.results[0]!.edition.permalink).toBe(
      `${BASE_URL}2026-05-04/#item-where-the-goblins-came-from`,
    );
    expect(answer.nextCursor).toBe('2');
    const bad = await fetch(new URL('api/v1/editions?page=zero', url));
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { field: 'page' } });
    const etag = (await fetch(new URL('api/v1/editions/2026-05-04', url))).headers.get('etag')!;
    expect(
      (await fetch(new URL('api/v1/editions/2026-05-04', url), { headers: { 'if-none-match': etag } }))
        .status,
    ).toBe(304);
    expect((await fetch(new URL('2026-05-04/', url))).status).toBe(200);
  });

  it('answers an MCP client at /mcp', async () => {
    const client = new Client({ name: 'digest-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('mcp', url)));
    const result = (await client.callTool({
      name: 'get_edition',
      arguments: { date: '2026-04-20' },
    })) as unknown as {
      structuredContent: { items: unknown[] };
    };
    expect(result.structuredContent.items).toHaveLength(12);
    await client.close();
  });

  it('stops cleanly on SIGTERM', async () => {
    served.child.kill('SIGTERM');
    expect(await served.exited).toEqual({ code: 0, signal: null });
  }, 30_000);
});
