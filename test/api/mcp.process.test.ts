// `digest mcp`: the real process (bin/digest.js → dist/) on a data folder holding published editions (one of them
// corrected), driven over stdio by the SDK's own client, which spawns it. stdout must carry only the protocol.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { describeMcpContract } from '../support/mcp-contract.js';
import { BASE_URL, seedArchiveDataDir } from '../support/published-archive.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(ROOT, 'bin', 'digest.js');

let cwd: string;
let client: Client;
let transport: StdioClientTransport;
let stderr = '';

beforeAll(async () => {
  // bin/digest.js runs dist/: `npm test` builds it first (pretest); a bare `npx vitest` needs `npm run build`.
  if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) {
    throw new Error('dist/ is not built: run "npm run build" first');
  }
  cwd = await mkdtemp(join(tmpdir(), 'digest-mcp-stdio-'));
  await seedArchiveDataDir(join(cwd, 'data'));
  await correctIntro(join(cwd, 'data'));
  await writeFile(join(cwd, 'digest.config.json'), JSON.stringify({ publish: { baseUrl: BASE_URL } }));
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
  delete env.DATABASE_URL;
  transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', '--data-dir', 'data'],
    cwd,
    env,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  client = new Client({ name: 'digest-test', version: '1.0.0' });
  await client.connect(transport);
}, 120_000);

afterAll(async () => {
  await client?.close();
  if (cwd) await rm(cwd, { recursive: true, force: true });
});

const CORRECTED = '2026-04-27';
const REASON = 'The intro named the wrong benchmark';

/** Revision 2 of one edition: its intro corrected, as `digest correct` publishes it (store/revisions.ts). */
async function correctIntro(dataDir: string): Promise<void> {
  const store = await openStore({ dataDir });
  try {
    const edition = (await store.editions.get(CORRECTED))!;
    const at = '2026-04-28T09:00:00.000Z';
    const correction = { revision: 2, at, reason: REASON, editor: 'editor@example.org' };
    await store.revisions.publishCorrection({
      edition: { ...edition, intro: 'The corrected intro.', corrections: [correction] },
      revision: 2,
      editor: correction.editor,
      reason: REASON,
      at,
    });
  } finally {
    await store.close();
  }
}

describeMcpContract('stdio (digest mcp)', () => client);

describe('digest mcp after a correction', () => {
  it('get_edition returns the current revision and lists the others, each readable at its page', async () => {
    const result = (await client.callTool({ name: 'get_edition', arguments: { date: CORRECTED } })) as {
      structuredContent: Record<string, unknown>;
      isError?: boolean;
    };
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      date: CORRECTED,
      intro: 'The corrected intro.',
      revision: 2,
      revisions: [
        { revision: 1, reason: null, page: `${BASE_URL}${CORRECTED}-r1/` },
        {
          revision: 2,
          reason: REASON,
          publishedAt: '2026-04-28T09:00:00.000Z',
          page: `${BASE_URL}${CORRECTED}/`,
        },
      ],
    });
    const uncorrected = (await client.callTool({
      name: 'get_edition',
      arguments: { date: '2026-05-04' },
    })) as unknown as { structuredContent: { revision: number; revisions: unknown[] } };
    expect(uncorrected.structuredContent.revision).toBe(1);
    expect(uncorrected.structuredContent.revisions).toHaveLength(1);
  });
});

describe('digest mcp process', () => {
  it('keeps stdout for the protocol: a stray line would have broken the client', async () => {
    // Every answer above parsed as JSON-RPC; anything logged went to stderr.
    expect((await client.listTools()).tools.length).toBe(4);
    expect(stderr).not.toMatch(/"jsonrpc"/);
  });

  it('ends when its stdin closes, releasing the data folder', async () => {
    expect(transport.pid).toBeGreaterThan(0);
    expect(existsSync(join(cwd, 'data', 'digest.lock'))).toBe(true);
    await client.close();
    // close() resolves once the process has exited; a clean close of the store removed its lock file.
    expect(existsSync(join(cwd, 'data', 'digest.lock'))).toBe(false);
  });
});
