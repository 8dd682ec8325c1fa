// Build of an edition from 2,000 stored candidates with the extractive writer: select + write + render.
import { parseConfig } from '../src/config/index.js';
import { editionWindow } from '../src/core/dates.js';
import { silentLogger } from '../src/core/ports.js';
import { buildEdition } from '../src/editions/build-edition.js';
import { renderEditionHtml } from '../src/publish/edition-html.js';
import { createExtractiveWriter } from '../src/write/extractive.js';
import { replicatedWeek, seedWeekItems } from './_seed-week.js';
import { withPreparedStore } from './_store.js';

const CANDIDATES = 2_000;
const WEEK = '2026-05-04';

export async function benchBuild(): Promise<Record<string, number | string>> {
  const real = await seedWeekItems();
  const items = replicatedWeek(real, CANDIDATES, WEEK);
  return withPreparedStore(async (store) => {
    await store.items.upsert(items);
    const config = parseConfig({});
    const started = performance.now();
    const { edition } = await buildEdition({
      date: WEEK,
      config,
      store,
      ports: { writer: createExtractiveWriter(), log: silentLogger },
    });
    const html = renderEditionHtml(edition);
    const seconds = (performance.now() - started) / 1000;
    return {
      candidates: (await store.items.candidates(editionWindow(WEEK))).length,
      'build wall s (2,000 candidates)': Math.round(seconds * 1000) / 1000,
      'edition items': edition.items.length,
      'page KB': Math.round(Buffer.byteLength(html) / 102.4) / 10,
    };
  });
}
