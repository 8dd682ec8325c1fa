import { afterEach, describe, expect, it } from 'vitest';
import { FetchError } from '../../src/core/errors.js';
import { fetchCitationCounts } from '../../src/enrich/semantic-scholar.js';
import { createHttpClient } from '../../src/net/http-client.js';
import { readFixture } from '../support/fixtures.js';
import { type LoopbackServer, startLoopback } from '../support/loopback.js';
import { cassetteBody } from './_services.js';

const http = createHttpClient({ timeoutMs: 5000, maxBytes: 1024 * 1024, retries: 0 });
const CASSETTE = readFixture('real', 'semantic-scholar', 'vcr_paper_batch_authors.yaml').toString('utf8');
let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('fetchCitationCounts', () => {
  it('reads the recorded batch answer: papers without citationCount stay unknown', async () => {
    const body = cassetteBody(CASSETTE);
    expect(JSON.parse(body)).toHaveLength(3);
    server = await startLoopback((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
    const counts = await fetchCitationCounts(['2604.00001', '2604.00002', '2604.00003'], {
      http,
      baseUrl: server.url('/graph/v1'),
    });
    expect([...counts]).toEqual([
      ['2604.00001', null],
      ['2604.00002', null],
      ['2604.00003', null],
    ]);
    expect(server.requests[0]?.method).toBe('POST');
    expect(server.requests[0]?.path).toBe('/graph/v1/paper/batch');
  });

  it('maps counts by position, keeps 0, and treats a null entry as unknown', async () => {
    // Synthetic answer in the recorded shape (the cassette requested authors, not citationCount).
    const answer = [
      { paperId: 'c31c87c591a25c64fbaa82e8ac6a81831b6ac7ce', citationCount: 0 },
      null,
      {
        paperId: '0f40b1f08821e22e859c6050916cec3667778613',
        citationCount: 41,
        externalIds: { ArXiv: '2604.00003' },
      },
    ];
    server = await startLoopback((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
    const counts = await fetchCitationCounts(['2604.00001', '2604.00002', '2604.00003'], {
      http,
      baseUrl: server.url('/graph/v1/'),
      apiKey: 'k',
    });
    expect(counts.get('2604.00001')).toBe(0);
    expect(counts.get('2604.00002')).toBeNull();
    expect(counts.get('2604.00003')).toBe(41);
    expect(server.requests[0]?.headers['x-api-key']).toBe('k');
    expect(JSON.parse(server.requests[0]!.body)).toEqual({
      ids: ['ARXIV:2604.00001', 'ARXIV:2604.00002', 'ARXIV:2604.00003'],
    });
  });

  it('refuses an answer of the wrong shape or length with a FetchError', async () => {
    server = await startLoopback((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>');
    });
    await expect(
      fetchCitationCounts(['2604.00001'], { http, baseUrl: server.url('/graph/v1') }),
    ).rejects.toBeInstanceOf(FetchError);
    await server.close();
    server = await startLoopback((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    await expect(
      fetchCitationCounts(['2604.00001'], { http, baseUrl: server.url('/graph/v1') }),
    ).rejects.toThrow(/0 entries for 1 ids/);
  });
});
