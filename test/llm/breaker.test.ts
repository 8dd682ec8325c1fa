// A dead model costs one connection attempt: a refused connection (or a host that does not resolve) opens the
// provider's breaker at once and is said in one line with the address and the fix; timeouts keep their own rules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../src/core/ports.js';
import { connectionFailure } from '../../src/llm/call-errors.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/types.js';
import { createWriter } from '../../src/write/index.js';
import { freePort } from '../support/loopback.js';
import { hfItems } from '../support/real-items.js';

function recordingLog(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, info() {}, debug() {}, warn: (line) => warnings.push(line) };
}

/** Global fetch, counting every connection the LLM client tries. */
function countingFetch(): typeof fetch & { urls: string[] } {
  const urls: string[] = [];
  const counting = (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    urls.push(String(input instanceof Request ? input.url : input));
    return fetch(input, init);
  };
  return Object.assign(counting as typeof fetch, { urls });
}

describe('a model nothing listens for', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore({ dataDir: 'memory://' });
  });
  afterAll(async () => {
    await store?.close();
  });
  const items = hfItems('daily_papers_2026-06-12.json').slice(0, 5);
  const context = { name: 'LLM News Digest', audience: 'engineers', log: recordingLog() };

  /** The items written by ollama at `baseURL`: every one extractive, after one connection attempt and one warning. */
  async function writeWithOllamaAt(baseURL: string) {
    const log = recordingLog();
    const engineFetch = countingFetch();
    const { writer, usage } = createWriter({
      llm: { write: 'ollama:qwen3:8b', maxRetries: 3 },
      store,
      log,
      env: { OLLAMA_BASE_URL: baseURL },
      engine: { fetch: engineFetch },
    });
    const written = await writer.writeItems(items, context);
    expect(written.map((item) => item.writer)).toEqual(items.map(() => 'extractive'));
    expect(engineFetch.urls).toHaveLength(1);
    expect(log.warnings).toHaveLength(1);
    return { log, usage };
  }

  it('ollama on a closed port: one connection attempt, one line naming it with the fix, every item extractive', async () => {
    const port = await freePort();
    const baseURL = `http://127.0.0.1:${port}/v1`;
    const { log, usage } = await writeWithOllamaAt(baseURL);
    expect(log.warnings[0]).toContain(`nothing listens at ${baseURL} (connection refused)`);
    expect(log.warnings[0]).toMatch(/ollama serve.*OLLAMA_BASE_URL.*digest doctor/);
    expect(usage().fallbackItems).toBe(items.length);
    // The refused attempt is the one call the usage reports (failed), so a build shows it was made.
    expect(usage()).toMatchObject({ calls: 1, failedCalls: 1 });
    expect(usage().byModel['ollama:qwen3:8b']?.calls).toBe(1);
  });

  it("ollama on a port fetch refuses (9, 'bad port'): one attempt, one line naming the address and the fix", async () => {
    const baseURL = 'http://127.0.0.1:9/v1';
    const { log, usage } = await writeWithOllamaAt(baseURL);
    expect(log.warnings[0]).toContain(`ollama:qwen3:8b: ${baseURL} is on a port browsers and fetch refuse`);
    expect(log.warnings[0]).toMatch(/no more calls to ollama.*pick another port.*OLLAMA_BASE_URL/);
    expect(usage()).toMatchObject({ calls: 1, failedCalls: 1, fallbackItems: items.length });
  });

  it('a remote provider on a closed port: no retry, no call after the first refusal has come back', async () => {
    const port = await freePort();
    const log = recordingLog();
    const engineFetch = countingFetch();
    const { writer, usage } = createWriter({
      // One call at a time, so the first refusal comes back before the second call would start.
      llm: { write: 'openai:gpt-4.1-mini', maxRetries: 3, concurrency: 1 },
      store,
      log,
      env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` },
      engine: { fetch: engineFetch },
    });
    const written = await writer.writeItems(items, context);
    expect(written.map((item) => item.writer)).toEqual(items.map(() => 'extractive'));
    expect(engineFetch.urls).toHaveLength(1);
    expect(log.warnings).toEqual([expect.stringMatching(/connection refused.*set OPENAI_BASE_URL/)]);
    expect(usage()).toMatchObject({ calls: 1, failedCalls: 1 });
  });
});

describe('connectionFailure', () => {
  const wrapped = (code: string) =>
    new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) });

  it('a refused connection, an unknown host, a port fetch refuses; not a reset, a timeout or an HTTP error', () => {
    expect(connectionFailure(wrapped('ECONNREFUSED'))).toBe('refused');
    expect(connectionFailure(wrapped('ENOTFOUND'))).toBe('unresolvable');
    const both = new AggregateError([wrapped('ECONNREFUSED'), wrapped('ECONNREFUSED')]);
    expect(connectionFailure(new TypeError('fetch failed', { cause: both }))).toBe('refused');
    const badPort = new TypeError('fetch failed', { cause: new Error('bad port') });
    expect(connectionFailure(badPort)).toBe('blocked-port');
    expect(connectionFailure(wrapped('ECONNRESET'))).toBeNull();
    expect(connectionFailure(wrapped('ETIMEDOUT'))).toBeNull();
    expect(connectionFailure(new Error('HTTP 503'))).toBeNull();
  });
});
