// The list use case: the week's candidates ranked exactly as `build` ranks them — with LLM triage read from the cache
// (a cache-only LLM client: `list` never calls a model, as an --offline build), or without it (`--no-triage`).
import { editionWindow } from '../core/dates.js';
import { planEdition } from '../select/plan-edition.js';
import type { EditionPlan, PlannedItem } from '../select/types.js';
import type { ListDeps } from './ports.js';
import { selectionPolicy, weekCandidates } from './selection.js';
import { tasteEmbedder } from './taste-embedder.js';

export type { PlannedItem };

export interface ListInput {
  week: string;
  /** Use the triage scores the last LLM build got (default true); false ranks without them. */
  triage?: boolean;
}

export interface ListResult {
  week: string;
  plan: EditionPlan;
  /** Keys of the items the build would publish. */
  picked: Set<string>;
  /** The triage read from the cache, or null (no model configured, or --no-triage). */
  triage: { model: string; rated: number; shortlist: number } | null;
  /**
   * How many items of the week's saved edition this ranking would not pick (built from other data or another
   * config: say so rather than leave two rankings side by side); null when none is saved.
   */
  savedDiffers: number | null;
}

export async function list(deps: ListDeps, input: ListInput): Promise<ListResult> {
  const { config, store } = deps;
  const candidates = await weekCandidates(store, editionWindow(input.week));
  // Learned taste from stored embeddings only: like triage here, `list` never calls a model.
  const embedder = await tasteEmbedder(deps, { cacheOnly: true });
  const policy = await selectionPolicy(
    { config, store, date: input.week },
    {
      candidates,
      log: deps.log,
      ...(embedder ? { embedder } : {}),
    },
  );
  let triage: ListResult['triage'] = null;
  // The AI SDK loads only when a model is configured: without one there is no triage to read.
  if (input.triage !== false && candidates.length > 0 && config.llm.write) {
    const { createLlmClient } = await import('../llm/client.js');
    const llmClient = createLlmClient({
      llm: config.llm,
      store,
      log: deps.log,
      env: deps.env,
      run: { cacheOnly: true },
    });
    const { createTriage } = await import('./shared-triage.js');
    const run = createTriage({ deps, week: input.week, llmClient, quiet: true });
    if (run) {
      const result = await run.run(candidates, policy);
      policy.relevance = result.scores;
      triage = { model: run.modelId, rated: result.scores.size, shortlist: result.shortlist };
    }
  }
  const plan = planEdition(candidates, policy, input.week);
  const picked = new Set(plan.picks.map((pick) => pick.item.key));
  const saved = await store.editions.get(input.week);
  const savedDiffers = saved ? saved.items.filter((item) => !picked.has(item.key)).length : null;
  return { week: input.week, plan, picked, triage, savedDiffers };
}
