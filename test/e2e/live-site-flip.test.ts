// The real `digest serve` while the site is published again and again (publish/site-swap.ts flips the live link to a
// new generation): a reader fetching pages the whole time never gets a 404, a cut page or a page of each site, and
// sees each new site once it is live (the server follows the flip, it does not keep the old generation's path).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishSite } from '../../src/publish/publish-site.js';
import { swapSite } from '../../src/publish/site-swap.js';
import { nodeFileSystem } from '../../src/publish/write-site.js';
import { type Served, startServe } from '../support/serve.js';
import { weeklyEditions } from '../support/weekly-editions.js';
import { eventually } from './_http.js';

const NAMES = ['Flip Digest Alpha', 'Flip Digest Beta'] as const;
const PUBLISHES = 6;
const PAGES = ['/', '/2026-05-04/', '/search/'];

/** A publish as `digest publish` makes it: the whole site into a staging folder, then the flip. */
function publish(site: string, round: number) {
  return swapSite(site, (staging) =>
    publishSite({
      fs: nodeFileSystem,
      outDir: staging,
      // Each round a different site: another name on every page, and one more edition.
      editions: weeklyEditions(3 + round),
      siteName: NAMES[round % 2]!,
      baseUrl: 'https://digest.example.org/',
    }),
  );
}

describe('a reader of digest serve during repeated publishes', () => {
  let root: string;
  let served: Served;
  const site = () => join(root, 'site');

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'digest-live-flip-'));
    await publish(site(), 0);
    served = await startServe({ cwd: root, site: site(), dataDir: 'data' });
  }, 120_000);

  afterAll(async () => {
    if (served && served.child.exitCode === null && served.child.signalCode === null) {
      served.child.kill('SIGTERM');
      await served.exited;
    }
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('answers every page whole, of one site, at every moment; each new site shows', async () => {
    const problems: string[] = [];
    const seen = new Set<string>();
    let fetches = 0;
    let publishing = true;
    const reader = (async () => {
      while (publishing) {
        for (const path of PAGES) {
          const response = await fetch(new URL(path, served.url));
          const page = await response.text();
          fetches += 1;
          const names = NAMES.filter((name) => page.includes(name));
          if (response.status !== 200) problems.push(`${path}: ${response.status}`);
          else if (names.length !== 1) problems.push(`${path}: names ${names.join(', ') || 'none'}`);
          else if (!page.trimEnd().endsWith('</html>')) problems.push(`${path}: cut short`);
          if (path === '/') seen.add(names.join());
        }
      }
    })();
    try {
      for (let round = 1; round <= PUBLISHES; round += 1) {
        await publish(site(), round);
        // The server follows the flip: the front page of this round's site shows (the last one had the other name).
        await eventually(`round ${round} live`, async () =>
          (await (await fetch(served.url)).text()).includes(NAMES[round % 2]!) ? true : undefined,
        );
      }
    } finally {
      publishing = false;
      await reader;
    }
    expect(problems).toEqual([]);
    expect(fetches).toBeGreaterThan(PUBLISHES * PAGES.length);
    expect([...seen].sort()).toEqual([...NAMES]);
  }, 120_000);
});
