// A rebuild that would change nothing is not run: the stored edition's page is written again. "Nothing" is checked,
// not guessed: the store's write mark (it moves with every write, whoever makes it: an ingest, a decision, a desk
// edit, a publication, an LLM answer cached) is where the last build left it, and the config, the run's flags, the
// model settings in the environment and the program itself are the ones it ran with. A run that asks the network
// (ingest, enrichment) or new text (--refresh, --model…) always builds.
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compareText } from '../core/text.js';
import type { Edition } from '../core/types.js';
import type { Store } from '../store/types.js';
import type { BuildDeps } from './ports.js';

/** The flags of a build this looks at (build.ts's BuildInput). */
interface BuildInput {
  week: string;
  ingest: boolean;
  enrich: boolean;
  offline: boolean;
  check: boolean;
  refresh: boolean;
  llm?: { model?: string; retryFailed?: boolean; maxCost?: number };
}

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
  input: BuildInput,
): Promise<{ edition: Edition; degraded: boolean } | null> {
  if (asksTheNetwork(deps, input) || asksForNewText(input)) return null;
  const record = await deps.store.cache.get<InputsRecord>(NAMESPACE, input.week);
  if (!record || record.fingerprint !== fingerprint(deps, input)) return null;
  if ((await deps.store.changes.mark()) !== record.mark) return null;
  const edition = await deps.store.editions.get(input.week);
  return edition ? { edition, degraded: record.degraded } : null;
}

/** Records what this build ran with, after its last write to the store. */
export async function rememberInputs(deps: InputsDeps, input: BuildInput, degraded: boolean): Promise<void> {
  // This put is the next write: it takes the id the mark names now, so the mark it leaves is one past it.
  const mark = String(BigInt((await deps.store.changes.mark()) || '0') + 1n);
  const record: InputsRecord = { fingerprint: fingerprint(deps, input), mark, degraded };
  await deps.store.cache.put({ namespace: NAMESPACE, key: input.week, value: record });
}

/** Flags that ask for other text than the stored one (new LLM answers, another model, another budget). */
export function asksForNewText(input: BuildInput): boolean {
  const llm = input.llm ?? {};
  return input.refresh || Boolean(llm.retryFailed || llm.model || llm.maxCost !== undefined);
}

function asksTheNetwork(deps: Pick<BuildDeps, 'config'>, input: BuildInput): boolean {
  return input.ingest || (input.enrich && deps.config.enrich.enabled && !input.offline);
}

/** Everything a build reads besides the store: config, the flags that change the text, model settings, program. */
function fingerprint(deps: Pick<BuildDeps, 'config' | 'env'>, input: BuildInput): string {
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
