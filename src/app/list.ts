// The list use case: the week's candidates ranked exactly as `build` would rank them.
import { editionWindow } from '../core/dates.js';
import { selectionPolicy } from '../pipeline/build-edition.js';
import { planEdition } from '../select/plan-edition.js';
import type { EditionPlan, PlannedItem } from '../select/types.js';
import type { DigestDeps } from './deps.js';

export type { PlannedItem };

export interface ListInput {
  week: string;
}

export interface ListResult {
  week: string;
  plan: EditionPlan;
  /** Keys of the items the build would publish. */
  picked: Set<string>;
}

export async function list(deps: DigestDeps, input: ListInput): Promise<ListResult> {
  const { config, store } = deps;
  const candidates = await store.listCandidates(editionWindow(input.week));
  const plan = planEdition(candidates, await selectionPolicy(config, store, input.week), input.week);
  return { week: input.week, plan, picked: new Set(plan.picks.map((pick) => pick.item.key)) };
}
