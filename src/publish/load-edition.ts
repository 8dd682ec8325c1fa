// The one way a use case reads an edition it must have: a missing one is a PublishError that says how to build it.

import { PublishError } from '../core/errors.js';
import type { StageStore } from '../core/ports.js';
import type { Edition } from '../core/types.js';

export async function loadEdition(store: Pick<StageStore, 'editions'>, date: string): Promise<Edition> {
  const edition = await store.editions.get(date);
  if (!edition)
    throw new PublishError(`There is no edition for ${date}. Build it first: ./digest build --week ${date}`);
  return edition;
}
