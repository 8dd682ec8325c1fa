// The desk's list of readers: a page by filter (address search, status, complaints, edition language), the counts
// per status, one reader's whole record by row, and removal by row. The filter comes from a query string, so every
// field is checked here and a value that is not one of the choices is dropped, never passed to the store.
import { NotFoundError } from '../core/errors.js';
import type { SubscriberExport } from '../store/preferences.js';
import type { ReaderCounts, ReaderQuery } from '../store/readers.js';
import type { SubscriberStatus } from '../store/schema.js';
import type { Subscriber } from '../store/subscribers.js';
import { SUBSCRIBER_STATUSES } from './manage.js';
import type { ReadersDeps } from './ports.js';

/** The status filter's choices: the stored statuses and "complained" (a spam report, whatever the status now). */
export const READER_FILTERS = [...SUBSCRIBER_STATUSES, 'complained'] as const;
export type ReaderFilterStatus = (typeof READER_FILTERS)[number];

export interface ReaderFilter {
  search: string;
  status: ReaderFilterStatus | null;
  language: string | null;
  /** The last id of the page before (keyset paging, newest first). */
  before: number | null;
}

export interface ReaderPage {
  filter: ReaderFilter;
  readers: Subscriber[];
  counts: ReaderCounts;
  /** The `before` of the next page, or null on the last. */
  next: number | null;
}

export const READERS_PER_PAGE = 50;

/** The filter from a request's query, each field checked against its choices (`languages`: the config's). */
export function parseReaderFilter(
  query: Record<string, string | undefined>,
  languages: readonly string[],
): ReaderFilter {
  const status = (READER_FILTERS as readonly string[]).includes(query.status ?? '')
    ? (query.status as ReaderFilterStatus)
    : null;
  const before = Number(query.before);
  return {
    search: (query.q ?? '').trim().slice(0, 200),
    status,
    language: languages.includes(query.language ?? '') ? query.language! : null,
    before: Number.isSafeInteger(before) && before > 0 ? before : null,
  };
}

export async function findReaders(deps: ReadersDeps, filter: ReaderFilter): Promise<ReaderPage> {
  const query: ReaderQuery = { limit: READERS_PER_PAGE + 1 };
  if (filter.search) query.search = filter.search;
  if (filter.status === 'complained') query.complained = true;
  else if (filter.status) query.status = filter.status as SubscriberStatus;
  if (filter.language) query.language = filter.language;
  if (filter.before) query.before = filter.before;
  const [found, counts] = await Promise.all([deps.store.readers.find(query), deps.store.readers.counts()]);
  const readers = found.slice(0, READERS_PER_PAGE);
  return { filter, readers, counts, next: found.length > READERS_PER_PAGE ? readers.at(-1)!.id : null };
}

/** Everything stored about one reader, by row: the same JSON as `digest subscribers export <email>`. */
export async function readerRecord(deps: ReadersDeps, id: number): Promise<SubscriberExport> {
  const subscriber = await deps.store.subscribers.get({ id });
  const data = subscriber ? await deps.store.preferences.exportSubscriber(subscriber.address) : null;
  if (!data) throw new NotFoundError(`No reader ${id}: they may have been removed.`);
  return data;
}

/** Deletes the reader by row, with their preferences, send log, mails and clicks; false when already gone. */
export function removeReader(deps: ReadersDeps, id: number): Promise<boolean> {
  return deps.store.readers.removeById(id);
}
