import { describe, expect, it } from 'vitest';
import type { DateWindow } from '../../src/core/types.js';
import { readFeed } from '../../src/sources/_feed-read.js';
import { readFeedOffThread } from '../../src/sources/_feed-threads.js';
import { readFixture } from '../support/fixtures.js';

const WIDE: DateWindow = { start: '2010-01-01', end: '2026-12-31' };

/** How many 1 ms timers fire while `work` runs: few when the work holds this thread, many when it does not. */
async function timerTurnsDuring(work: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  const every = setInterval(() => turns++, 1);
  try {
    await work();
  } finally {
    clearInterval(every);
  }
  return turns;
}

describe('feeds read on the worker thread', () => {
  const body = readFixture('real', 'simonwillison', 'atom_everything_2026-06-25.xml');
  const request = {
    body,
    contentType: 'application/atom+xml',
    sourceId: 'rss-x',
    feedUrl: 'https://simonwillison.net/atom/everything/',
    window: WIDE,
  };

  it('gives the items and warnings this thread would', async () => {
    expect(body.byteLength).toBeGreaterThan(64 * 1024);
    const here = readFeed(request);
    expect(here.items).toHaveLength(30);
    expect(await readFeedOffThread(request)).toEqual(here);
  });

  it('leaves this thread free to answer while a large feed is read', async () => {
    // A feed of many copies of the entries: long enough to read that a held thread would fire no timer at all.
    const text = body.toString('utf8');
    const entries = text.slice(text.indexOf('<entry'), text.lastIndexOf('</entry>') + 8);
    const large = Buffer.from(text.replace(entries, entries.repeat(20)));
    await readFeedOffThread({ ...request, body: Buffer.from(text) });
    const started = performance.now();
    const turns = await timerTurnsDuring(() => readFeedOffThread({ ...request, body: large }));
    expect(turns).toBeGreaterThan((performance.now() - started) / 20);
  });

  it('rejects with the message of the reader when no entry can be read', async () => {
    const broken = Buffer.from(
      `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom">${'<entry><title>t</title></entry>'.repeat(3000)}</feed>`,
    );
    expect(broken.byteLength).toBeGreaterThan(64 * 1024);
    await expect(readFeedOffThread({ ...request, body: broken })).rejects.toThrow(
      /every entry of the feed was rejected/,
    );
  });
});
