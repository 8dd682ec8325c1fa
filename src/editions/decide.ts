// Editor decisions and additions: pin or skip an item for a week, add one by hand.
import { editionWindow } from '../core/dates.js';
import { ConfigError, NotFoundError } from '../core/errors.js';
import { arxivIdFromUrl, canonicalUrl, normaliseArxivId } from '../core/ids.js';
import { nearestWords } from '../core/nearest.js';
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
  // An undo may name any item (a decision left from an earlier week's list); a new decision only a candidate.
  const key = input.undo
    ? await resolveItemKey(deps.store, input.item)
    : await candidateKey(deps.store, input.week, input.item);
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

/** The keys an item key, arXiv id or URL may be stored under. */
function possibleKeys(input: string): string[] {
  const value = input.trim();
  const keys = [value];
  const arxivId = normaliseArxivId(value) ?? arxivIdFromUrl(value);
  if (arxivId) keys.push(`arxiv:${arxivId}`);
  if (isHttpUrl(value)) keys.push(`url:${canonicalUrl(value)}`);
  return keys;
}

/**
 * The key of the week's candidate `input` names. A decision on anything else would say "Pinned" and change nothing
 * (the build plans from the candidates only), so it is refused naming the nearest candidates' keys.
 */
async function candidateKey(store: Pick<Store, 'items'>, week: string, input: string): Promise<string> {
  const keys = (await store.items.candidates(editionWindow(week))).map((item) => item.key);
  const known = new Set(keys);
  const key = possibleKeys(input).find((possible) => known.has(possible));
  if (key) return key;
  // A key that has since changed (a URL-keyed item that learnt its arXiv id) still names its item.
  const stored = await findStoredItem(store, input);
  if (stored && known.has(stored.key)) return stored.key;
  const nearest = nearestWords(input.trim(), keys);
  const message =
    keys.length === 0
      ? `"${input}" is not a candidate of the week of ${week}: it has none (run ./digest build or ingest first)`
      : `"${input}" is not a candidate of the week of ${week}; nearest: ${nearest.join(', ')} (./digest list --week ${week} lists them; ./digest add adds one by hand)`;
  throw new ConfigError(`${message}.`, [{ path: 'item', message }]);
}

/** The stored item an item key, arXiv id or URL names, or null. */
async function findStoredItem(store: Pick<Store, 'items'>, input: string): Promise<StoredItem | null> {
  for (const key of possibleKeys(input)) {
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
