// The desk's readers at size: the readers list (first page, counts per status) and one reader's page (their send
// log rows, clicks and mails), each the first answer of a desk just opened on the scale store, through the real
// Hono app with a signed-in editor. Then the median of 5 more of each, the answer once the store's pages are warm.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDigest } from '../src/compose/create-digest.js';
import { parseConfig } from '../src/config/index.js';
import { silentLogger } from '../src/core/ports.js';
import { createHttpClient } from '../src/net/http-client.js';
import { nodeFileSystem } from '../src/publish/write-site.js';
import { openStore } from '../src/store/open-store.js';
import { signedInDesk } from './_desk-app.js';

export interface ReaderPageTimes {
  listFirstMs: number;
  listMs: number;
  readerFirstMs: number;
  readerMs: number;
}

/** `reader`: the id of a reader with a send log and clicks (the middle of the list). */
export async function timeReaderPages(dataDir: string, reader: number): Promise<ReaderPageTimes> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-scale-desk-'));
  const store = await openStore({ dataDir });
  try {
    const digest = createDigest({
      config: parseConfig({ languages: ['en', 'de'], enrich: { enabled: false } }),
      store,
      http: createHttpClient({ timeoutMs: 5000, maxBytes: 1024 * 1024, retries: 0 }),
      clock: { now: () => new Date() },
      log: silentLogger,
      fs: nodeFileSystem,
      env: {},
    });
    const answer = await signedInDesk(digest, dir);
    const time = async (path: string) => (await answer(path)).ms;
    const listFirstMs = await time('/admin/readers');
    const readerFirstMs = await time(`/admin/readers/${reader}`);
    const list: number[] = [];
    const one: number[] = [];
    for (let run = 0; run < 5; run++) {
      list.push(await time('/admin/readers'));
      one.push(await time(`/admin/readers/${reader + run + 1}`));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    return { listFirstMs, listMs: median(list), readerFirstMs, readerMs: median(one) };
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}
