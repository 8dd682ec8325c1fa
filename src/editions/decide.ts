// Editor decisions and additions: pin or skip an item for a week, add one by hand.
import { NotFoundError } from '../core/errors.js';
import { arxivIdFromUrl, canonicalUrl, normaliseArxivId } from '../core/ids.js';
import type { EditorDecision } from '../core/ports.js';
import type { SourceItem, StoredItem } from '../core/types.js';
import { isHttpUrl } from '../core/urls.js';
import { fetchManualItem } from '../sources/manual.js';
import type { Store } from '../store/types.js';
import { guardEdition } from './edition-guard.js';
import type { AddDeps, DecideDeps } from './ports.js';

export interface DecideInput {
  week: string;
  /** An item key (from `list`), an arXiv id or a URL. */
  item: string;
  decision: EditorDecision;
  undo: boolean;
}

export async function decide(deps: DecideDeps, input: DecideInput): Promise<{ key: string }> {
  await guardEdition({
    store: deps.store,
    week: input.week,
    door: `a ${input.undo ? 'decision undone' : input.decision}`,
  });
  const key = await resolveItemKey(deps.store, input.item);
  await deps.store.decisions.set({
    week: input.week,
    itemKey: key,
    decision: input.undo ? null : input.decision,
  });
  return { key };
}

export interface AddInput {
  week: string;
  /** A URL or an arXiv id; fetched through the guarded client (a private address is refused). */
  input: string;
  note: string | null;
  /** `--offline`: only an item already stored can be added; no request is made. */
  offline?: boolean;
}

/** Adds (pins) an item for the week: a stored one as it is, with no request; else fetched. */
export async function add(deps: AddDeps, input: AddInput): Promise<StoredItem> {
  await guardEdition({ store: deps.store, week: input.week, door: 'adding an item' });
  const stored = await findStoredItem(deps.store, input.input);
  if (stored) return deps.store.items.addManual(asManualItem(stored), input.week, input.note);
  if (input.offline) {
    throw new NotFoundError(
      `"${input.input}" is not stored, and --offline makes no network request. Run it without --offline to fetch it.`,
    );
  }
  const item = await fetchManualItem(input.input, {
    http: deps.http,
    week: input.week,
    arxivApiUrl: deps.config.enrich.arxivApiUrl,
    now: deps.clock.now(),
  });
  return deps.store.items.addManual(item, input.week, input.note);
}

/** The stored item an item key, arXiv id or URL names, or null. */
async function findStoredItem(store: Pick<Store, 'items'>, input: string): Promise<StoredItem | null> {
  const value = input.trim();
  const candidates = [value];
  const arxivId = normaliseArxivId(value) ?? arxivIdFromUrl(value);
  if (arxivId) candidates.push(`arxiv:${arxivId}`);
  if (isHttpUrl(value)) candidates.push(`url:${canonicalUrl(value)}`);
  for (const key of candidates) {
    const item = await store.items.get(key);
    if (item) return item;
  }
  return null;
}

/** A stored item as the hand-added source item that re-pins it (the merge keeps what the sources said). */
function asManualItem(item: StoredItem): SourceItem {
  const { url, title, text, authors, arxivId, image, publishedAt } = item;
  return { sourceId: 'manual', url, title, text, authors, arxivId, image, publishedAt, upvotes: null };
}

async function resolveItemKey(store: Pick<Store, 'items'>, input: string): Promise<string> {
  const found = await findStoredItem(store, input);
  if (found) return found.key;
  throw new NotFoundError(
    `No stored item matches "${input}". Use a key from "./digest list", or add it with "./digest add".`,
  );
}
