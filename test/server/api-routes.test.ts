// The JSON API through app.request(): published editions, items and search over a real PGlite store; ETags and 304,
// CORS, caps, and every bad input answered 400 with the field named. Hostile search text is only words.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArchive } from '../../src/api/archive.js';
import type { Edition } from '../../src/core/types.js';
import { createAnswerCache } from '../../src/server/api-cache.js';
import { API_ANSWER_TTL_MS, createApiRoutes } from '../../src/server/api-routes.js';
import type { ServerApp } from '../../src/server/index.js';
import type { Store } from '../../src/store/types.js';
import { createTestStore } from '../support/database.js';
import { BASE_URL, DRAFT_DATE, DRAFT_WORD, publishArchive } from '../support/published-archive.js';
import { composedApp } from '../support/root.js';
import { weeklyEditions } from '../support/weekly-editions.js';

describe('JSON API /api/v1', () => {
  let store: Store;
  let siteDir: string;
  let editions: Edition[];
  let app: ServerApp;
  const get = (path: string, headers: Record<string, string> = {}) => app.request(path, { headers });
  // biome-ignore lint/suspicious/noExplicitAny: the tests read whatever JSON came back
  const body = async (response: Response) => (await response.json()) as Record<string, any>;

  beforeAll(async () => {
    store = await createTestStore();
    editions = await publishArchive(store);
    siteDir = await mkdtemp(join(tmpdir(), 'digest-api-site-'));
    app = await composedApp({ store, siteDir, config: { publish: { baseUrl: BASE_URL } } });
  });
  afterAll(async () => {
    await store?.close();
    if (siteDir) await rm(siteDir, { recursive: true, force: true });
  });

  it('lists published editions newest first, paged, never the draft', async () => {
    const response = await get('/api/v1/editions?limit=2');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const first = await body(response);
    expect(first.editions.map((edition: { date: string }) => edition.date)).toEqual([
      '2026-05-04',
      '2026-04-27',
    ]);
    expect(first).toMatchObject({ page: 1, limit: 2, total: 3, nextPage: 2 });
    expect(first.editions[0]).toEqual({
      date: '2026-05-04',
      name: 'LLM News Digest',
      title: editions[2]!.title,
      itemCount: 12,
      publishedAt: '2026-05-04T09:00:00.000Z',
      links: { page: `${BASE_URL}2026-05-04/`, api: '/api/v1/editions/2026-05-04' },
    });
    const second = await body(await get('/api/v1/editions?limit=2&page=2'));
    expect(second.editions.map((edition: { date: string }) => edition.date)).toEqual(['2026-04-20']);
    expect(second.nextPage).toBeNull();
    expect(JSON.stringify(await body(await get('/api/v1/editions')))).not.toContain(DRAFT_DATE);
  });

  it('returns one edition with every item, its source link, dates and a permalink to cite', async () => {
    const edition = await body(await get('/api/v1/editions/2026-05-04'));
    expect(edition.intro).toBe(editions[2]!.intro);
    expect(edition.items).toHaveLength(12);
    const goblins = edition.items[11];
    expect(goblins).toMatchObject({
      key: 'url:https://openai.com/index/where-the-goblins-came-from/',
      url: 'https://openai.com/index/where-the-goblins-came-from/',
      source: 'rss-openai',
      edition: {
        date: '2026-05-04',
        position: 12,
        permalink: `${BASE_URL}2026-05-04/#item-where-the-goblins-came-from`,
      },
    });
    expect(goblins.publishedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(goblins).not.toHaveProperty('levelReason');
    expect(goblins).not.toHaveProperty('why');
  });

  it('answers 404 for an edition that is not published, naming the field', async () => {
    for (const date of [DRAFT_DATE, '2020-01-06']) {
      const response = await get(`/api/v1/editions/${date}`);
      expect(response.status).toBe(404);
      expect((await body(response)).error.field).toBe('date');
    }
  });

  it('returns an item by its key, encoded or not, with every edition that featured it', async () => {
    const key = 'url:https://openai.com/index/where-the-goblins-came-from/';
    for (const path of [`/api/v1/items/${encodeURIComponent(key)}`, `/api/v1/items/${key}`]) {
      const response = await get(path);
      expect(response.status).toBe(200);
      const answer = await body(response);
      expect(answer.item).toMatchObject({ key, title: 'Where the goblins came from' });
      expect(answer.item.edition.date).toBe('2026-05-04');
      expect(answer.editions.map((edition: { date: string }) => edition.date)).toEqual([
        '2026-05-04',
        '2026-04-27',
        '2026-04-20',
      ]);
    }
    const missing = await get(`/api/v1/items/${encodeURIComponent('url:https://example.com/draft')}`);
    expect(missing.status).toBe(404);
    expect((await body(missing)).error).toMatchObject({ field: 'key' });
  });

  it('searches titles, summaries and takeaways with filters and a cursor', async () => {
    const answer = await body(await get('/api/v1/search?q=goblins'));
    expect(answer.results.map((hit: { edition: { date: string } }) => hit.edition.date)).toEqual([
      '2026-05-04',
      '2026-04-27',
      '2026-04-20',
    ]);
    expect(answer.results[0]).toMatchObject({
      title: 'Where the goblins came from',
      url: 'https://openai.com/index/where-the-goblins-came-from/',
    });
    expect(answer.results[0].rank).toBeGreaterThan(0);
    const dated = await body(await get('/api/v1/search?q=goblins&from=2026-04-27&to=2026-04-27'));
    expect(dated.results).toHaveLength(1);
    const topic = await body(await get('/api/v1/search?q=agents&topic=evaluation&level=Intermediate'));
    expect(topic.results.length).toBeGreaterThan(0);
    expect(topic.results.every((hit: { level: string }) => hit.level === 'Intermediate')).toBe(true);
    const source = await body(await get('/api/v1/search?q=agents%20or%20goblins&source=rss-openai'));
    expect(source.results).toHaveLength(3);
    const first = await body(await get('/api/v1/search?q=agents&limit=2'));
    expect(first.nextCursor).toBe('2');
    const next = await body(await get(`/api/v1/search?q=agents&limit=2&cursor=${first.nextCursor}`));
    const both = await body(await get('/api/v1/search?q=agents&limit=4'));
    expect([...first.results, ...next.results]).toEqual(both.results);
    expect(JSON.stringify(await body(await get(`/api/v1/search?q=${DRAFT_WORD}`)))).not.toContain(
      `${DRAFT_WORD} draft`,
    );
  });

  it('caps a huge limit instead of serving everything', async () => {
    const editionsAnswer = await body(await get('/api/v1/editions?limit=1000000'));
    expect(editionsAnswer.limit).toBe(100);
    const search = await body(await get('/api/v1/search?q=agents&limit=99999999999'));
    expect(search.limit).toBe(100);
    expect(search.results.length).toBeLessThanOrEqual(100);
  });

  it.each([
    ['/api/v1/editions/2026-02-30', 'date'],
    ['/api/v1/editions/yesterday', 'date'],
    ['/api/v1/editions/2026-5-4', 'date'],
    ['/api/v1/editions?page=0', 'page'],
    ['/api/v1/editions?page=-1', 'page'],
    ['/api/v1/editions?page=abc', 'page'],
    ['/api/v1/editions?page=1.5', 'page'],
    ['/api/v1/editions?page=99999999', 'page'],
    ['/api/v1/editions?limit=0', 'limit'],
    ['/api/v1/editions?limit=ten', 'limit'],
    ['/api/v1/search', 'q'],
    ['/api/v1/search?q=', 'q'],
    ['/api/v1/search?q=%20%20', 'q'],
    ['/api/v1/search?q=a&from=2026-13-01', 'from'],
    ['/api/v1/search?q=a&to=not-a-date', 'to'],
    ['/api/v1/search?q=a&level=Expert', 'level'],
    ['/api/v1/search?q=a&topic=astrology', 'topic'],
    ['/api/v1/search?q=a&limit=-5', 'limit'],
    ['/api/v1/search?q=a&cursor=abc', 'cursor'],
    ['/api/v1/search?q=a&cursor=5000', 'cursor'],
    [`/api/v1/search?q=${'a'.repeat(10 * 1024)}`, 'q'],
    [`/api/v1/items/${'k'.repeat(700)}`, 'key'],
  ])('answers 400 naming the field for %s', async (path, field) => {
    const response = await get(path);
    expect(response.status).toBe(400);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const answer = await body(response);
    expect(answer.error.field).toBe(field);
    expect(answer.error.message).toMatch(new RegExp(field === 'date' ? 'date' : field));
  });

  it.each([
    "'; DROP TABLE items; --",
    "'; DROP TABLE search_items; --",
    'a & | ! :*',
    '"unbalanced quote',
    "agents' OR 1=1 --",
    '!!(agents',
    '<script>alert(1)</script>',
  ])('treats %s as words: 200, and every table still answers', async (q) => {
    const response = await get(`/api/v1/search?q=${encodeURIComponent(q)}`);
    expect(response.status).toBe(200);
    expect((await body(response)).query).toBe(q.trim());
    expect((await body(await get('/api/v1/search?q=goblins'))).results).toHaveLength(3);
    expect(await store.items.get('anything')).toBeNull();
    expect((await store.editions.list()).length).toBe(4);
  });

  it('sends an ETag and Cache-Control, and 304 when If-None-Match matches', async () => {
    for (const path of [
      '/api/v1/editions',
      '/api/v1/editions/2026-05-04',
      '/api/v1/search?q=agents',
      '/api/v1/openapi.json',
    ]) {
      const response = await get(path);
      const etag = response.headers.get('etag');
      expect(etag).toMatch(/^"[\w-]+"$/);
      expect(response.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
      const again = await get(path, { 'if-none-match': etag! });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
      expect((await get(path, { 'if-none-match': `W/${etag}, "other"` })).status).toBe(304);
      expect((await get(path, { 'if-none-match': '"other"' })).status).toBe(200);
    }
  });

  it('allows any origin to GET, without credentials, and answers the preflight', async () => {
    const response = await get('/api/v1/editions', { origin: 'https://elsewhere.example' });
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    const preflight = await app.request('/api/v1/editions', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://elsewhere.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'if-none-match',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('GET');
    expect(preflight.headers.get('access-control-allow-methods')).not.toContain('POST');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toBe('if-none-match');
    expect(preflight.headers.get('access-control-max-age')).toBe('86400');
    // The ETag is readable by a script, and errors are readable too (a 400 names the field to a browser client).
    expect(response.headers.get('access-control-expose-headers')).toBe('ETag');
    const invalid = await get('/api/v1/editions?limit=abc', { origin: 'https://elsewhere.example' });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('is read-only: other methods get 405, unknown paths a JSON 404', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const response = await app.request('/api/v1/editions', { method, body: '{}' });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toContain('GET');
    }
    const missing = await get('/api/v1/nothing-here');
    expect(missing.status).toBe(404);
    expect((await body(missing)).error.message).toContain('openapi.json');
  });

  it('serves an OpenAPI 3.1 document generated from the schemas, whose references all resolve', async () => {
    const document = await body(await get('/api/v1/openapi.json'));
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual([
      '/api/v1/editions',
      '/api/v1/editions/{date}',
      '/api/v1/items/{key}',
      '/api/v1/search',
    ]);
    const search = document.paths['/api/v1/search'].get;
    const parameters = Object.fromEntries(
      search.parameters.map((parameter: { name: string }) => [parameter.name, parameter]),
    );
    expect(Object.keys(parameters)).toEqual([
      'q',
      'from',
      'to',
      'level',
      'source',
      'topic',
      'lang',
      'limit',
      'cursor',
    ]);
    expect(parameters.q).toMatchObject({ required: true, schema: { type: 'string', maxLength: 500 } });
    expect(parameters.level.schema.enum).toEqual(['Accessible', 'Intermediate', 'Advanced']);
    expect(parameters.topic.schema.enum).toContain('agents');
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)].map(
      (match) => match[1]!,
    );
    expect(refs.length).toBeGreaterThan(5);
    for (const ref of refs) expect(document.components.schemas).toHaveProperty(ref);
    // The live answer has exactly the documented fields of an edition.
    const edition = await body(await get('/api/v1/editions/2026-05-04'));
    expect(Object.keys(edition).sort()).toEqual(
      Object.keys(document.components.schemas.Edition.properties).sort(),
    );
  });
});

describe('API answer cache', () => {
  it('serves an answer from memory for its time to live, then asks the store again', async () => {
    const store = await createTestStore();
    try {
      await publishArchive(store, 1);
      let now = 0;
      const cache = createAnswerCache({ ttlMs: API_ANSWER_TTL_MS, maxBytes: 1024 * 1024, now: () => now });
      const api = createApiRoutes({
        archive: createArchive({ store, baseUrl: BASE_URL }),
        version: 'test',
        cache,
      });
      const total = async () => ((await (await api.request('/editions')).json()) as { total: number }).total;
      expect(await total()).toBe(1);
      const [next] = weeklyEditions(1).map((edition) => ({ ...edition, date: '2026-05-18' }));
      await store.editions.save(next!);
      now += API_ANSWER_TTL_MS - 1;
      expect(await total()).toBe(1);
      now += 1;
      expect(await total()).toBe(2);
      // A refused request is never cached: the same URL is checked again.
      expect((await api.request('/editions?page=0')).status).toBe(400);
      expect((await api.request('/editions?page=0')).status).toBe(400);
    } finally {
      await store.close();
    }
  });

  it('keeps within its byte budget, the oldest answers leaving first', () => {
    const cache = createAnswerCache({ ttlMs: 1000, maxBytes: 4000, now: () => 0 });
    const answer = { body: new Uint8Array(400), etag: '"e"', cacheControl: 'public' };
    for (let index = 0; index < 10; index++) cache.set(`/k${index}`, answer);
    expect(cache.get('/k0')).toBeUndefined();
    expect(cache.get('/k9')).toMatchObject(answer);
    cache.set('/huge', { ...answer, body: new Uint8Array(4000) });
    expect(cache.get('/huge')).toBeUndefined();
  });
});
