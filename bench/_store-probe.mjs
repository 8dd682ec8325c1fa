// One store measurement in a process of its own, so its peak RSS is its own. Prints one JSON line.
// Plain node on the compiled modules (dist/, built by `npm run bench`), as the CLI runs: no tsx in the figure.
// Usage: node bench/_store-probe.mjs floor|open|list|create DATA_DIR
import { editionWindow } from '../dist/core/dates.js';
import { openStore } from '../dist/store/open-store.js';
import { pgliteOptions } from '../dist/store/pglite-options.js';

const [mode, dataDir] = process.argv.slice(2);
if (!mode || !dataDir) throw new Error('usage: _store-probe.mjs floor|open|list|create DATA_DIR');
const started = performance.now();
let rows = 0;
if (mode === 'floor') {
  // PGlite's own floor: open an existing database with this program's settings and run `select 1`.
  const { PGlite } = await import('@electric-sql/pglite');
  const pglite = await PGlite.create({ dataDir, ...pgliteOptions(PGlite) });
  rows = (await pglite.query('select 1')).rows.length;
  await pglite.close();
} else {
  // create: a new folder, unpacked from the build's prepared empty database (no initdb, no child process).
  const store = await openStore({ dataDir });
  if (mode === 'list') rows = (await store.listCandidates(editionWindow('2026-05-04'))).length;
  await store.close();
}
const seconds = (performance.now() - started) / 1000;
process.stdout.write(
  `${JSON.stringify({ peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024), seconds, rows })}\n`,
);
