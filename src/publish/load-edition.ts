// The one way a use case reads an edition it must have: a missing one is a PublishError that says how to build it.
import type { Edition } from '../core/types.js';
import type { EditionsPort } from '../store/types.js';
import { PublishError } from './publish-errors.js';

export async function loadEdition(store: Pick<EditionsPort, 'getEdition'>, date: string): Promise<Edition> {
  const edition = await store.getEdition(date);
  if (!edition)
    throw new PublishError(`There is no edition for ${date}. Build it first: digest build --week ${date}`);
  return edition;
}
