// Editor decisions and additions: pin or skip an item for a week, add one by hand.
import { NotFoundError } from '../core/errors.js';
import { arxivIdFromUrl, canonicalUrl, normaliseArxivId } from '../core/ids.js';
import type { StoredItem } from '../core/types.js';
import { isHttpUrl } from '../core/urls.js';
import { fetchManualItem } from '../sources/manual.js';
import type { EditorDecision, Store } from '../store/types.js';
import type { DigestDeps } from './deps.js';

export interface DecideInput {
  week: string;
  /** An item key (from `list`), an arXiv id or a URL. */
  item: string;
  decision: EditorDecision;
  undo: boolean;
}

export async function decide(deps: DigestDeps, input: DecideInput): Promise<{ key: string }> {
  const key = await resolveItemKey(deps.store, input.item);
  await deps.store.setDecision(input.week, key, input.undo ? null : input.decision);
  return { key };
}

export interface AddInput {
  week: string;
  /** A URL or an arXiv id; fetched through the guarded client (a private address is refused). */
  input: string;
  note: string | null;
}

export async function add(deps: DigestDeps, input: AddInput): Promise<StoredItem> {
  const item = await fetchManualItem(input.input, {
    http: deps.http,
    week: input.week,
    arxivApiUrl: deps.config.enrich.arxivApiUrl,
    now: deps.clock.now(),
  });
  return deps.store.addManualItem(item, input.week, input.note);
}

async function resolveItemKey(store: Store, input: string): Promise<string> {
  const candidates = [input];
  const arxivId = normaliseArxivId(input) ?? arxivIdFromUrl(input);
  if (arxivId) candidates.push(`arxiv:${arxivId}`);
  if (isHttpUrl(input)) candidates.push(`url:${canonicalUrl(input)}`);
  for (const key of candidates) {
    if (await store.getItem(key)) return key;
  }
  throw new NotFoundError(
    `No stored item matches "${input}". Use a key from "digest list", or add it with "digest add".`,
  );
}
