// The desk board's rows for the sample week, from the use case `digest serve` calls (the board ranks with the `list`
// use case, as the desk's capability hands it in), on a folder the CLI worked in and with the config its commands load.
import { join } from 'node:path';
import { loadConfig } from '../../src/config/index.js';
import { silentLogger } from '../../src/core/ports.js';
import { systemClock } from '../../src/deps.js';
import { boardView, parseBoardFilter } from '../../src/desk/board.js';
import type { BoardCandidate } from '../../src/desk/views/view-model.js';
import { list as rankWeek } from '../../src/editions/index.js';
import { offlineHttpClient } from '../../src/net/http-client.js';
import { SAMPLE_WEEK } from '../../src/sample/sample-week.js';
import { openStore } from '../../src/store/open-store.js';

/** Every row of every page of the board; `file` is the config file the commands were given (default: cwd's). */
export async function sampleBoard(cwd: string, file?: string): Promise<BoardCandidate[]> {
  const { config } = await loadConfig(file ? { file, cwd } : { cwd });
  const store = await openStore({ dataDir: join(cwd, 'data') });
  try {
    const deps = { config, store, http: offlineHttpClient, clock: systemClock, log: silentLogger, env: {} };
    const rows: BoardCandidate[] = [];
    for (let page = 1; ; page++) {
      const view = await boardView({
        deps,
        week: SAMPLE_WEEK,
        filter: parseBoardFilter({ page: String(page) }),
        notice: null,
        listWeek: (week) => rankWeek(deps, { week }),
      });
      rows.push(...view.candidates);
      if (view.candidates.length < 100) return rows;
    }
  } finally {
    await store.close();
  }
}
