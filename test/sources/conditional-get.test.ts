// Conditional GET across runs: a 304 may only stand in for a fetch whose items were read for this window,
// and validators are kept only for a body that was read.
import { afterEach, describe, expect, it } from 'vitest';
import type { SourceConfig } from '../../src/config/config-schema.js';
import { editionWindow } from '../../src/core/dates.js';
import { type SourceState, silentLogger } from '../../src/core/ports.js';
import type { DateWindow } from '../../src/core/types.js';
import { createSource } from '../../src/sources/index.js';
import { readFixture } from '../support/fixtures.js';
import { type LoopbackServer, startLoopback } from '../support/loopback.js';
import { testHttp } from './contract.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Serves `body` with an ETag and answers 304 to a request that sends it back, like a real server. */
async function serveWithEtag(body: Buffer, type: string) {
  server = await startLoopback((request, response) => {
    if (request.headers['if-none-match'] === '"v1"') response.writeHead(304, { etag: '"v1"' }).end();
    else response.writeHead(200, { 'content-type': type, etag: '"v1"' }).end(body);
  });
  return server;
}

function fetchWith(type: SourceConfig['type'], url: string, window: DateWindow, state: SourceState = {}) {
  const source = createSource({ id: 'src-x', type, url, weight: 1, enabled: true });
  return source.fetch({ window, http: testHttp(), state, log: silentLogger });
}

describe('conditional GET state', () => {
  it('an unchanged feed still yields the items of another week (simonwillison.net, weeks of July 19 and 12)', async () => {
    const s = await serveWithEtag(
      readFixture('real', 'simonwillison', 'atom_everything_2026-07-19.xml'),
      'application/atom+xml',
    );
    const url = s.url('/atom/everything/');
    const thisWeek = await fetchWith('feed', url, editionWindow('2026-07-19'));
    expect(thisWeek.items.length).toBeGreaterThan(0);
    // The feed has not changed, but the entries of the earlier week were skipped (outside the window) last time.
    const earlier = await fetchWith('feed', url, editionWindow('2026-07-12'), thisWeek.state);
    expect(s.requests[1]?.headers['if-none-match']).toBeUndefined();
    expect(earlier.error).toBeUndefined();
    expect(earlier.items.length).toBeGreaterThan(0);
    for (const item of earlier.items) expect(item.publishedAt.slice(0, 10) <= '2026-07-12').toBe(true);
    // The same week again: the 304 is trusted, nothing is parsed twice.
    const again = await fetchWith('feed', url, editionWindow('2026-07-12'), earlier.state);
    expect(s.requests[2]?.headers['if-none-match']).toBe('"v1"');
    expect(again).toMatchObject({ items: [], warnings: [] });
    expect(again.error).toBeUndefined();
  });

  it('a feed that could not be read keeps no validators, so the next run reports the error again', async () => {
    const s = await serveWithEtag(
      readFixture('real', 'malformed', 'feedparser', 'illformed_aaa_illformed.xml'),
      'application/xml',
    );
    const url = s.url('/feed.xml');
    const window = editionWindow('2026-05-04');
    const first = await fetchWith('feed', url, window);
    expect(first.error).toMatch(/^not a feed/);
    const second = await fetchWith('feed', url, window, first.state);
    expect(s.requests[1]?.headers['if-none-match']).toBeUndefined();
    expect(second.error).toMatch(/^not a feed/);
  });

  it('a daily list that could not be read keeps no validators for its day (HF API answering an HTML page)', async () => {
    // synthetic: an HTML error page where the JSON list should be
    const s = await serveWithEtag(Buffer.from('<html><body>Maintenance</body></html>'), 'text/html');
    const window: DateWindow = { start: '2026-06-12', end: '2026-06-12' };
    const first = await fetchWith('hf-daily-papers', s.url('/api/daily_papers'), window);
    expect(first.error).toMatch(/not JSON/);
    expect(first.state).toEqual({});
    const second = await fetchWith('hf-daily-papers', s.url('/api/daily_papers'), window, first.state);
    expect(s.requests[1]?.headers['if-none-match']).toBeUndefined();
    expect(second.error).toMatch(/not JSON/);
  });
});
