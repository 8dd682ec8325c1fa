// The MCP server at /mcp of the real HTTP app on loopback, through the SDK's Streamable HTTP client; then what a
// hostile page or client may try: a foreign Host (DNS rebinding), a foreign Origin, oversized bodies, bad JSON-RPC;
// and admission: a batch is flat, so an array inside one is refused before any tool runs, and every call
// of a batch is charged to the client's per-minute budget.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, type ServerApp, startServer } from '../../src/server/index.js';
import { MCP_MAX_BODY_BYTES } from '../../src/server/mcp-route.js';
import type { Store } from '../../src/store/types.js';
import { createTestStore } from '../support/database.js';
import { describeMcpContract } from '../support/mcp-contract.js';
import { BASE_URL, publishArchive } from '../support/published-archive.js';
import { composedApp } from '../support/root.js';

let store: Store;
let siteDir: string;
let server: RunningServer;
let client: Client;

beforeAll(async () => {
  store = await createTestStore();
  await publishArchive(store);
  siteDir = await mkdtemp(join(tmpdir(), 'digest-mcp-site-'));
  const app = await composedApp({ store, siteDir, config: { publish: { baseUrl: BASE_URL } } });
  server = await startServer(app, { host: '127.0.0.1', port: 0 });
  client = new Client({ name: 'digest-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', server.url)));
});

afterAll(async () => {
  await client?.close();
  await server?.close();
  await store?.close();
  if (siteDir) await rm(siteDir, { recursive: true, force: true });
});

describeMcpContract('Streamable HTTP', () => client);

describe('/mcp guards', () => {
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  };
  const post = (body: string, headers: Record<string, string> = {}, dispatcher?: Agent) =>
    fetch(new URL('/mcp', server.url), {
      ...(dispatcher ? { dispatcher } : {}),
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body,
    });

  it('answers a plain initialize over loopback', async () => {
    const response = await post(JSON.stringify(initialize));
    expect(response.status).toBe(200);
    expect(
      ((await response.json()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name,
    ).toBe('llm-news-digest');
  });

  it('refuses a Host that is neither loopback nor the public site (DNS rebinding)', async () => {
    // fetch() will not send a forged Host; a rebinding page would reach us as evil.example:port.
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(new URL('/mcp', server.url), {
        method: 'POST',
        headers: { host: `evil.example:${server.port}`, 'content-type': 'application/json' },
      });
      req.once('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      req.once('error', reject);
      req.end(JSON.stringify(initialize));
    });
    expect(status).toBe(403);
  });

  it("accepts the public site's Host and Origin, refuses a foreign Origin", async () => {
    expect((await post(JSON.stringify(initialize), { origin: 'https://digest.example.org' })).status).toBe(
      200,
    );
    expect((await post(JSON.stringify(initialize), { origin: server.url.replace(/\/$/, '') })).status).toBe(
      200,
    );
    const foreign = await post(JSON.stringify(initialize), { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as { error: { code: number } }).error.code).toBe(-32600);
    expect((await post(JSON.stringify(initialize), { origin: 'null' })).status).toBe(403);
  });

  it('refuses an oversized body with 413, announced or streamed', async () => {
    const huge = JSON.stringify({
      ...initialize,
      params: { ...initialize.params, pad: 'x'.repeat(MCP_MAX_BODY_BYTES) },
    });
    // Refused before the body is read: its connection is not reused, so these get their own.
    const connections = new Agent();
    const announced = await post(huge, {}, connections);
    expect(announced.status).toBe(413);
    const chunks = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(huge));
        controller.close();
      },
    });
    const streamed = await fetch(new URL('/mcp', server.url), {
      dispatcher: connections,
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: chunks,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    await connections.close();
  });

  it('answers broken JSON and unknown methods with JSON-RPC errors', async () => {
    const broken = await post('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: { code: number } }).error.code).toBe(-32700);
    // Stateless: every request stands alone, so a tool call needs no session first.
    const unknown = await post(
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/destroy', params: {} }),
      {
        'mcp-protocol-version': '2025-06-18',
      },
    );
    const answers = JSON.stringify(await unknown.json());
    expect(answers).toContain('-32601');
  });

  it('answers tool calls in a batch exactly as the SDK transport answers each alone', async () => {
    const call = (id: number | string, params: unknown) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params,
    });
    const messages = [
      call(1, { name: 'search_items', arguments: { q: 'model', limit: 3 } }),
      call('two', { name: 'get_item', arguments: { key: 'no-such-key' } }),
      call(3, { name: 'search_items', arguments: { q: 'model', limit: 'many' } }),
      call(4, { name: 'no_such_tool', arguments: {} }),
      call(5, { arguments: {} }),
      { jsonrpc: '2.0', id: 6, method: 'tools/list', params: {} },
    ];
    const alone = await Promise.all(
      messages.map(async (message) => (await post(JSON.stringify(message))).json()),
    );
    const batch = await post(JSON.stringify(messages));
    expect(batch.status).toBe(200);
    expect(await batch.json()).toEqual(alone);
    // Each kind of answer is there: a result, a tool error, a validation error, a JSON-RPC error.
    expect(JSON.stringify(alone[0])).toContain('structuredContent');
    expect(JSON.stringify(alone[2])).toContain('isError');
    expect(JSON.stringify(alone[4])).toContain('"error"');
  });

  it('has no event stream or session to GET or DELETE: 405', async () => {
    expect(
      (await fetch(new URL('/mcp', server.url), { headers: { accept: 'text/event-stream' } })).status,
    ).toBe(405);
    expect((await fetch(new URL('/mcp', server.url), { method: 'DELETE' })).status).toBe(405);
  });
});

// Admission on its own app: a budget of 25 messages a minute, so the tests can spend it.
let limited: { store: Store; siteDir: string; app: ServerApp };

beforeAll(async () => {
  const store = await createTestStore();
  await publishArchive(store);
  const siteDir = await mkdtemp(join(tmpdir(), 'digest-mcp-route-'));
  const app = await composedApp({
    store,
    siteDir,
    config: { publish: { baseUrl: BASE_URL }, server: { mcpPerMinute: 25 } },
  });
  limited = { store, siteDir, app };
});

afterAll(async () => {
  await limited?.store.close();
  if (limited?.siteDir) await rm(limited.siteDir, { recursive: true, force: true });
});

const search = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'search_items', arguments: { q: 'model', limit: 1 } },
});

const postLimited = (body: unknown) =>
  limited.app.request('http://localhost/mcp', {
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
      const answer = await postLimited(nested);
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({
        jsonrpc: '2.0',
        error: { code: -32600, message: expect.stringMatching(/flat/) },
        id: null,
      });
    }
    // One array inside an otherwise fine batch is refused as well.
    expect((await postLimited([search(1), [search(2)]])).status).toBe(400);
    // Nothing was charged: the budget (25 a minute) still takes a full batch of 10.
    const fine = await postLimited(Array.from({ length: 10 }, (_, index) => search(index)));
    expect(fine.status).toBe(200);
    expect(await fine.json()).toHaveLength(10);
  });

  it('charges every call of a flat batch: the budget of 25 a minute takes two batches of 10, not a third', async () => {
    // The first test spent 10 of the 25.
    expect((await postLimited(Array.from({ length: 10 }, (_, index) => search(index)))).status).toBe(200);
    const third = await postLimited(Array.from({ length: 10 }, (_, index) => search(index)));
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});
