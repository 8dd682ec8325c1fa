// The build use case: a week whose inputs are unchanged keeps its stored edition (build-inputs.ts) and only its page
// is written again; any other build loads the stages (build-anew.ts: the LLM client, select, write and the rest) and
// runs them, so a rebuild that changes nothing never loads them.

import type { Edition } from '../core/types.js';
import { refusePublishedSite } from '../publish/site-swap.js';
import type { BuildInput } from './build-anew.js';
import type { BuildResult } from './build-edition.js';
import { asksForNewText, unchangedEdition } from './build-inputs.js';
import { editionPagePath, writeEditionPage } from './build-page.js';
import { guardEdition } from './edition-guard.js';
import type { BuildDeps } from './ports.js';

export type { BuildInput } from './build-anew.js';

export interface BuildOutcome {
  edition: Edition;
  /** What the build did; null when nothing had changed and the stored edition was kept (build-inputs.ts). */
  result: BuildResult | null;
  pagePath: string;
  /** True when an LLM was asked and some item fell back, failed its check, or a call failed. */
  degraded: boolean;
}
/** The build use case: a published week refused, an unchanged one kept, any other built anew and its page written. */
export async function build(deps: BuildDeps, input: BuildInput): Promise<BuildOutcome> {
  const { store, log, clock } = deps;
  // Before any work: a published or mailed week is never rebuilt (a correction changes it).
  await guardEdition({
    store,
    week: input.week,
    door: 'rebuilding it',
    options: { unchanged: !asksForNewText(input) },
  });
  await refusePublishedSite(input.outDir, 'a build writes its draft elsewhere');
  const startedAt = clock.now().getTime();
  const unchanged = await unchangedEdition(deps, input);
  if (!unchanged) {
    const { buildAnew } = await import('./build-anew.js');
    const { result, degraded } = await buildAnew(deps, input, startedAt);
    return { edition: result.edition, result, pagePath: editionPagePath(input), degraded };
  }
  await writeEditionPage(deps, input, { edition: unchanged.edition, enriched: false });
  log.info(
    `Unchanged since its last build (the same stored items, decisions, config and program): "${unchanged.edition.title}" — ` +
      `${unchanged.edition.items.length} items, its page written again. --refresh builds it anew.`,
  );
  return {
    edition: unchanged.edition,
    result: null,
    pagePath: editionPagePath(input),
    degraded: unchanged.degraded,
  };
}
