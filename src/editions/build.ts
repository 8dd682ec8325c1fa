// The build use case: a published week is refused; a week whose inputs are unchanged keeps its stored edition and
// only its page is written again; any other build loads the stages (build-anew.ts: the LLM client, select, write
// and the rest) and runs them, so a rebuild that changes nothing never loads them.
//
// A rebuild that would change nothing is not run: the stored edition's page is written again. "Nothing" is checked,
// not guessed: the store's write mark (it moves with every write, whoever makes it: an ingest, a decision, a desk
// edit, a publication, an LLM answer cached) is where the last build left it, and the config, the run's flags, the
// model settings in the environment and the program itself are the ones it ran with. A run that asks the network
// (ingest, enrichment) or new text (--refresh, --model…) always builds.

import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { minItemsFor, thinReason } from '../core/edition-thin.js';
import { compareText } from '../core/text.js';
import type { Edition } from '../core/types.js';
import { refusePublishedSite } from '../publish/live-site.js';
import { siteOptions } from '../publish/site-options.js';
import { writeEditionFiles } from '../publish/write-site.js';
import type { Store } from '../store/types.js';
import type { BuildResult } from './build-edition.js';
import { guardEdition } from './edition-guard.js';
import type { BuildDeps, BuildInput } from './ports.js';

export type { BuildInput } from './ports.js';

export interface BuildOutcome {
  edition: Edition;
  /** What the build did; null when nothing had changed and the stored edition was kept (unchangedEdition, below). */
  result: BuildResult | null;
  pagePath: string;
  /** True when an LLM was asked and some item fell back, failed its check, or a call failed. */
  degraded: boolean;
  /** Why the edition is thin (fewer items than selection.minItems), or null: publish and send refuse a thin one. */
  thin: string | null;
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
    const { result, degraded, enriched } = await buildAnew(deps, input, startedAt);
    await writeEditionPage(deps, input, { edition: result.edition, enriched });
    await rememberInputs(deps, input, degraded);
    const thin = thinOf(deps, result.edition);
    return { edition: result.edition, result, pagePath: editionPagePath(input), degraded, thin };
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
    thin: thinOf(deps, unchanged.edition),
  };
}

/** The thin verdict, said in the build's log where the editor reads the rest of the build. */
function thinOf(deps: Pick<BuildDeps, 'config' | 'log'>, edition: Edition): string | null {
  const { selection, itemsPerEdition } = deps.config;
  const thin = thinReason(edition, minItemsFor(selection.minItems, itemsPerEdition));
  if (thin) deps.log.warn(`The edition is thin: ${thin} publish and send refuse it without --allow-thin.`);
  return thin;
}

/** The flags of a build the unchanged check looks at. */
type BuildFlags = Omit<BuildInput, 'outDir'>;

const NAMESPACE = 'build:inputs';

/** What the last build of a week left: its inputs, the store's mark after it, and whether it needed a look. */
interface InputsRecord {
  fingerprint: string;
  mark: string;
  degraded: boolean;
}

type InputsDeps = Pick<BuildDeps, 'config' | 'env'> & {
  store: Pick<Store, 'cache' | 'changes' | 'editions'>;
};

/** The stored edition when nothing the build reads has changed since it was built; null otherwise. */
export async function unchangedEdition(
  deps: InputsDeps,
  input: BuildFlags,
): Promise<{ edition: Edition; degraded: boolean } | null> {
  if (asksTheNetwork(deps, input) || asksForNewText(input)) return null;
  const record = await deps.store.cache.get<InputsRecord>(NAMESPACE, input.week);
  if (!record || record.fingerprint !== fingerprint(deps, input)) return null;
  if ((await deps.store.changes.mark()) !== record.mark) return null;
  const edition = await deps.store.editions.get(input.week);
  return edition ? { edition, degraded: record.degraded } : null;
}

/** Records what this build ran with, after its last write to the store. */
export async function rememberInputs(deps: InputsDeps, input: BuildFlags, degraded: boolean): Promise<void> {
  // This put is the next write: it takes the id the mark names now, so the mark it leaves is one past it.
  const mark = String(BigInt((await deps.store.changes.mark()) || '0') + 1n);
  const record: InputsRecord = { fingerprint: fingerprint(deps, input), mark, degraded };
  await deps.store.cache.put({ namespace: NAMESPACE, key: input.week, value: record });
}

/** Flags that ask for other text than the stored one (new LLM answers, another model, another budget). */
export function asksForNewText(input: BuildFlags): boolean {
  const llm = input.llm ?? {};
  return input.refresh || Boolean(llm.retryFailed || llm.model || llm.maxCost !== undefined);
}

function asksTheNetwork(deps: Pick<BuildDeps, 'config'>, input: BuildFlags): boolean {
  return input.ingest || (input.enrich && deps.config.enrich.enabled && !input.offline);
}

/** Everything a build reads besides the store: config, the flags that change the text, model settings, program. */
function fingerprint(deps: Pick<BuildDeps, 'config' | 'env'>, input: BuildFlags): string {
  const modelSettings = Object.entries(deps.env)
    .filter(([name]) => /^(OPENAI|ANTHROPIC|OLLAMA)_|_API_KEY$|_BASE_URL$/.test(name))
    .sort(([a], [b]) => compareText(a, b));
  return createHash('sha256')
    .update(
      JSON.stringify({
        config: deps.config,
        offline: input.offline,
        check: input.check,
        modelSettings,
        program: PROGRAM,
      }),
    )
    .digest('base64url');
}

/** This build of the program: a new one (an upgrade, `npm run build`) rewrites every module. */
const PROGRAM = statSync(fileURLToPath(import.meta.url)).mtimeMs;

// The page a build leaves in `--out`: the edition's page and the site's list of editions, written by a build anew
// and again by one whose inputs are unchanged.
export const editionPagePath = (input: { outDir: string; week: string }) =>
  resolve(input.outDir, input.week, 'index.html');

/** The edition's page (and the site's list of editions) into `--out`. */
export async function writeEditionPage(
  deps: BuildDeps,
  input: { outDir: string },
  { edition, enriched }: { edition: Edition; enriched: boolean },
): Promise<void> {
  await writeEditionFiles({
    fs: deps.fs,
    outDir: input.outDir,
    edition,
    editions: await deps.store.editions.list(),
    options: {
      ...siteOptions(deps.config),
      // Item images are fetched (once, guarded) with the rest of the network enrichment; --no-enrich: no images.
      ...(enriched ? { fetchImages: { http: deps.http, log: deps.log } } : {}),
    },
  });
}
