// /mcp's admission (server/mcp-route.ts) on the app the root composes: a JSON-RPC batch is flat, so an array inside
// one is refused before any tool runs, and every call of a batch is charged to the client's per-minute budget.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerApp } from '../../src/server/index.js';
import type { Store } from '../../src/store/types.js';
import { BASE_URL, publishArchive } from '../api/_archive.js';
import { createTestStore } from '../support/database.js';
import { composedApp } from '../support/root.js';

let store: Store;
let siteDir: string;
let app: ServerApp;

beforeAll(async () => {
  store = await createTestStore();
  await publishArchive(store);
  siteDir = await mkdtemp(join(tmpdir(), 'digest-mcp-route-'));
  app = await composedApp({
    store,
    siteDir,
    config: { publish: { baseUrl: BASE_URL }, server: { mcpPerMinute: 25 } },
  });
});

afterAll(async () => {
  await store?.close();
  if (siteDir) await rm(siteDir, { recursive: true, force: true });
});

const search = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'search_items', arguments: { q: 'model', limit: 1 } },
});

const post = (body: unknown) =>
  app.request('http://localhost/mcp', {
    method: 'POST',
    headers: {
      host: 'localhost',
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify(body),
  });

describe('/mcp admission', () => {
  it('refuses a batch holding an array with 400 and a JSON-RPC error, and charges nothing for it', async () => {
    const nested = Array.from({ length: 10 }, (_, outer) =>
      Array.from({ length: 100 }, (_, inner) => search(outer * 100 + inner)),
    );
    for (let round = 0; round < 6; round++) {
      const answer = await post(nested);
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({
        jsonrpc: '2.0',
        error: { code: -32600, message: expect.stringMatching(/flat/) },
        id: null,
      });
    }
    // One array inside an otherwise fine batch is refused as well.
    expect((await post([search(1), [search(2)]])).status).toBe(400);
    // Nothing was charged: the budget (25 a minute) still takes a full batch of 10.
    const fine = await post(Array.from({ length: 10 }, (_, index) => search(index)));
    expect(fine.status).toBe(200);
    expect(await fine.json()).toHaveLength(10);
  });

  it('charges every call of a flat batch: the budget of 25 a minute takes two batches of 10, not a third', async () => {
    // The first test spent 10 of the 25.
    expect((await post(Array.from({ length: 10 }, (_, index) => search(index)))).status).toBe(200);
    const third = await post(Array.from({ length: 10 }, (_, index) => search(index)));
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});
