// A flush at a list's size: 100,000 pending clicks in per-reader mode (one reader row each, 100,000 readers) and
// their counts, written by the counter as `digest serve` makes it: wall time and the longest the event loop was
// held meanwhile (PGlite runs on the thread that answers /r/).
import { systemTimer } from '../src/core/clock.js';
import { silentLogger } from '../src/core/ports.js';
import { openStore } from '../src/store/open-store.js';
import { createClickCounter } from '../src/subscribers/click-counter.js';
import { referenceEdition } from '../test/support/reference-edition.js';
import { watchEventLoop } from './_event-loop.js';
import { SCALE_EDITIONS } from './_scale-store.js';

export async function flushAtSize(dataDir: string, clicks: number): Promise<Record<string, number>> {
  const store = await openStore({ dataDir });
  try {
    const counter = createClickCounter({
      store,
      perReader: true,
      perMinute: 1_000_000,
      timer: systemTimer,
      today: () => ({ day: '2026-05-26', at: '2026-05-26T08:00:00.000Z' }),
      log: silentLogger,
    });
    const keys = referenceEdition().items.map((item) => item.key);
    for (let index = 0; index < clicks; index++) {
      const subscriberId = 1 + index;
      counter.record({
        link: {
          edition: SCALE_EDITIONS.at(-1)!,
          revision: 1,
          channel: 'mail',
          keyTag: '-',
          subscriberId,
        },
        itemKey: keys[index % keys.length]!,
        itemsInMail: keys.length,
        source: `10.${index % 250}.${Math.floor(index / 250) % 250}.${Math.floor(index / 62_500)}`,
        method: 'GET',
        userAgent: 'Mozilla/5.0',
      });
    }
    const loop = watchEventLoop();
    const started = performance.now();
    // stop(): every reader row too, those still inside their burst window.
    await counter.stop();
    const wall = performance.now() - started;
    const longest = loop.stop();
    return {
      'flush of 100k pending clicks (per reader): wall ms': Math.round(wall),
      'flush of 100k pending clicks (per reader): longest event-loop block ms': Number(longest.toFixed(1)),
    };
  } finally {
    await store.close();
  }
}
