// Child process for the crash-safety test: stores numbered batches into a PGlite folder, one upsert call each,
// and says on stdout when each batch starts and is committed. The test kills it with SIGKILL mid-way.
// Usage: node --import tsx test/store/crash-child.ts DATA_DIR BATCHES BATCH_SIZE
import { openStore } from '../../src/store/open-store.js';
import { crashBatch } from './_crash-batches.js';

const [dataDir, batches = '20', size = '300'] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: crash-child.ts DATA_DIR BATCHES BATCH_SIZE');
const store = await openStore({ dataDir });
process.stdout.write('open\n');
for (let batch = 0; batch < Number(batches); batch++) {
  process.stdout.write(`start ${batch}\n`);
  await store.items.upsert(crashBatch(batch, Number(size)));
  await store.sourceState.set('rss-crash', {
    [`https://feed.example.com/${batch}`]: { etag: `"${batch}"`, lastModified: null },
  });
  process.stdout.write(`done ${batch}\n`);
}
await store.close();
process.stdout.write('finished\n');
