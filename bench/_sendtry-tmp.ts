import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { scaleFolder, timedSend, writeScaleConfig } from './_scale-send.js';
import { prepareScaleStore } from './_scale-store.js';
import { newCounter, startSink } from './_smtp-sink.js';

const n = Number(process.argv[2]);
const conc = Number(process.argv[3] ?? 16);
const cwd = await scaleFolder();
const t = performance.now();
await prepareScaleStore(join(cwd, 'data'), n);
console.log('seed s', ((performance.now() - t) / 1000).toFixed(1));
const counter = newCounter();
const sink = await startSink(counter);
await writeScaleConfig(cwd, sink.port, { concurrency: conc, messagesPerSecond: 5000 });
const r = await timedSend(cwd, counter, {
  env: { ...(process.env.OPT ? { DIGEST_WASM_OPTIMIZE: '1' } : {}), NODE_OPTIONS: process.env.NO ?? '' },
});
console.log(
  JSON.stringify({
    n,
    mails: counter.total,
    wallS: r.wallS,
    cpuS: r.cpuS,
    cpuMsPerMail: (1000 * r.cpuS) / n,
    rate: n / r.wallS,
    sinkRate: r.sinkRate,
    peak: r.peakMb,
    at10k: r.rssAt10kMb,
    after: r.rssAfter10kMb,
  }),
);
console.log(r.stderr.split('\n').slice(-4).join('\n'));
await sink.close();
