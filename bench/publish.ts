// Whole-site render for ten years of weekly editions (520, generated from the reference edition), plus email sizes.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { addDays } from '../src/core/dates.js';
import type { Edition } from '../src/core/types.js';
import { renderEmail } from '../src/publish/email-files.js';
import { publishSite } from '../src/publish/publish-site.js';
import { swapSite } from '../src/publish/site-swap.js';
import { nodeFileSystem } from '../src/publish/write-site.js';
import { referenceEdition } from '../test/support/reference-edition.js';

const EDITIONS = 520;
const BASE_URL = 'https://digest.example.org/';

function archive(): Edition[] {
  return Array.from({ length: EDITIONS }, (_, week) => {
    const edition = referenceEdition();
    const date = addDays(edition.date, -7 * week);
    return {
      ...edition,
      date,
      publishedAt: `${date}T09:00:00.000Z`,
      title: week ? `${edition.title} · week ${EDITIONS - week}` : edition.title,
      items: edition.items.map((item, index) => ({
        ...item,
        title: week ? `${item.title} (${week}.${index})` : item.title,
      })),
    };
  });
}

export async function benchPublish(): Promise<Record<string, number | string>> {
  const editions = archive();
  const dir = await mkdtemp(join(tmpdir(), 'digest-bench-publish-'));
  try {
    const started = performance.now();
    const result = await publishSite({ fs: nodeFileSystem, outDir: dir, editions, baseUrl: BASE_URL });
    const wall = (performance.now() - started) / 1000;
    // A publish rewrites the live site through a staging folder beside it (publish/site-swap.ts): what the swap adds.
    const live = join(dir, 'out');
    await swapSite(live, (staging) =>
      publishSite({ fs: nodeFileSystem, outDir: staging, editions, baseUrl: BASE_URL }),
    );
    const swapStarted = performance.now();
    await swapSite(live, (staging) =>
      publishSite({ fs: nodeFileSystem, outDir: staging, editions, baseUrl: BASE_URL }),
    );
    const swapWall = (performance.now() - swapStarted) / 1000;
    const emailStarted = performance.now();
    const email = await renderEmail(editions[0]!, {
      baseUrl: BASE_URL,
      email: {
        from: 'LLM News Digest <digest@example.org>',
        to: [],
        unsubscribeUrl: `${BASE_URL}unsubscribe`,
      },
    });
    const emailMs = performance.now() - emailStarted;
    const size = async (path: string) => (await readFile(join(dir, path))).byteLength;
    const searchIndex = await readFile(join(dir, 'search-index.json'));
    return {
      'site wall s (520 editions)': Number(wall.toFixed(2)),
      'site republished through the swap wall s': Number(swapWall.toFixed(2)),
      'site files': result.files.length,
      'site MB': Number((result.bytes / 1024 / 1024).toFixed(1)),
      'edition page KB': Number(((await size('2026-05-04/index.html')) / 1024).toFixed(1)),
      'front page KB': Number(((await size('index.html')) / 1024).toFixed(1)),
      'search index KB': Number((searchIndex.byteLength / 1024).toFixed(1)),
      'search index KB gzipped': Number((gzipSync(searchIndex).byteLength / 1024).toFixed(1)),
      'RSS feed KB (20 editions)': Number(((await size('feed.xml')) / 1024).toFixed(1)),
      'email HTML KB': Number((Buffer.byteLength(email.html) / 1024).toFixed(1)),
      'email text KB': Number((Buffer.byteLength(email.text) / 1024).toFixed(1)),
      'edition.eml KB': Number((Buffer.byteLength(email.eml) / 1024).toFixed(1)),
      'email render ms': Math.round(emailMs),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
