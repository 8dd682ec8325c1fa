// The operator's side of the reader list: a page of readers by filter (newest first, keyset by id), counts per
// status, an import batch in one transaction, and removal by row. Readers' own requests go through subscribers.ts.
import { type Kysely, sql } from 'kysely';
import { bindQueries } from './_bind.js';
import { queueConfirmations } from './outbox.js';
import { recordStatusEvents } from './reader-events.js';
import type { Database, SubscriberStatus } from './schema.js';
import { COLUMNS, type Row, type Subscriber, toSubscriber } from './subscribers.js';

/** What the desk's list filters by; every field optional. `before`: the last id of the page shown. */
export interface ReaderQuery {
  /** Part of the address, any case. */
  search?: string;
  status?: SubscriberStatus;
  /** Only readers who complained (a spam report), whatever their status now. */
  complained?: boolean;
  /** Only readers who chose this edition language. */
  language?: string;
  before?: number;
  limit?: number;
}

export type ReaderCounts = Record<SubscriberStatus | 'complained', number>;

/** What became of one imported address. */
export type ImportOutcome =
  /** A new reader: pending (and their confirmation mail queued), or confirmed on asserted consent. */
  | 'added'
  /** A pending reader, confirmed on asserted consent. */
  | 'confirmed'
  /** Already pending or confirmed: left as is. */
  | 'subscribed'
  /** Unsubscribed or bounced: left so (only the reader can come back, through the form). */
  | 'unsubscribed';

export interface ImportBatchOptions {
  /** Who asserted that these readers consented; null: each new or pending reader gets a confirmation mail. */
  consentBy: string | null;
  /** One confirmation mail per inbox within this window (the subscribe form's rule). */
  windowSeconds: number;
  /** What the history says happened: an import or one reader added, and by whom ("desk:ada", "cli:ops"). */
  source?: { kind: 'import' | 'add'; by: string | null };
}

/** The history's words for readers an import or add changed: pending, or confirmed on asserted consent. */
function importHow(options: ImportBatchOptions): string {
  const { kind, by } = options.source ?? { kind: 'import', by: null };
  if (options.consentBy) return `${kind}, consent asserted by ${options.consentBy}`;
  return by ? `${kind} by ${by}` : kind;
}

export interface ReadersPort {
  find(query: ReaderQuery): Promise<Subscriber[]>;
  counts(): Promise<ReaderCounts>;
  /** One batch of distinct mailboxes: the outcome of each, in order, and how many confirmation mails were queued. */
  importBatch(
    rows: readonly { address: string; mailbox: string }[],
    options: ImportBatchOptions,
  ): Promise<{ outcomes: ImportOutcome[]; queued: number }>;
  /** Deletes the reader's row; their preferences, send log, mails and clicks go with it (ON DELETE CASCADE). */
  removeById(id: number): Promise<boolean>;
}

export function readersStore(db: Kysely<Database>): ReadersPort {
  return bindQueries(db, { find: findReaders, counts: countReaders, importBatch, removeById });
}

async function findReaders(db: Kysely<Database>, query: ReaderQuery): Promise<Subscriber[]> {
  let select = db
    .selectFrom('subscribers')
    .select(COLUMNS.map((column) => `subscribers.${column}` as const))
    .orderBy('subscribers.id', 'desc')
    .limit(Math.min(Math.max(query.limit ?? 50, 1), 500));
  if (query.before !== undefined) select = select.where('subscribers.id', '<', query.before);
  if (query.status) select = select.where('subscribers.status', '=', query.status);
  if (query.complained) select = select.where('subscribers.complained_at', 'is not', null);
  const search = query.search?.trim().toLowerCase();
  if (search) select = select.where(sql<boolean>`strpos(lower(subscribers.address), ${search}) > 0`);
  if (query.language) {
    select = select
      .innerJoin('subscriber_preferences', 'subscriber_preferences.subscriber_id', 'subscribers.id')
      .where('subscriber_preferences.language', '=', query.language);
  }
  const rows = await select.execute();
  return rows.map((row) => toSubscriber(row as Row));
}

async function countReaders(db: Kysely<Database>): Promise<ReaderCounts> {
  const rows = await db
    .selectFrom('subscribers')
    .select([
      'status',
      sql<number>`count(*)::int`.as('count'),
      sql<number>`count(complained_at)::int`.as('complained'),
    ])
    .groupBy('status')
    .execute();
  const counts: ReaderCounts = { pending: 0, confirmed: 0, unsubscribed: 0, bounced: 0, complained: 0 };
  for (const row of rows) {
    counts[row.status] = Number(row.count);
    counts.complained += Number(row.complained);
  }
  return counts;
}

type Existing = { id: number; address: string; mailbox: string; status: SubscriberStatus };

/**
 * One transaction: the batch's stored readers are read at once (by address, else by mailbox: a variant of a stored
 * address is that reader), the new ones inserted in one statement, pending ones confirmed on asserted consent, and
 * — without consent — one confirmation mail per pending inbox queued in the outbox, as the subscribe form does.
 */
async function importBatch(
  db: Kysely<Database>,
  rows: readonly { address: string; mailbox: string }[],
  options: ImportBatchOptions,
): Promise<{ outcomes: ImportOutcome[]; queued: number }> {
  if (rows.length === 0) return { outcomes: [], queued: 0 };
  return db.transaction().execute(async (tx) => {
    const found = await storedReaders(tx, rows);
    const consent = options.consentBy
      ? { consent_by: options.consentBy, consent_at: sql<Date>`now()`, confirmed_at: sql<Date>`now()` }
      : {};
    const fresh: { address: string; mailbox: string }[] = [];
    const toConfirm: number[] = [];
    const pending: number[] = [];
    const outcomes = rows.map((row): ImportOutcome => {
      const stored = found.byAddress.get(row.address) ?? found.byMailbox.get(row.mailbox);
      if (!stored) {
        fresh.push(row);
        return 'added';
      }
      if (stored.status === 'unsubscribed' || stored.status === 'bounced') return 'unsubscribed';
      if (stored.status !== 'pending') return 'subscribed';
      if (!options.consentBy) {
        pending.push(stored.id);
        return 'subscribed';
      }
      toConfirm.push(stored.id);
      return 'confirmed';
    });
    const status = options.consentBy ? ('confirmed' as const) : ('pending' as const);
    const inserted = fresh.length
      ? await tx
          .insertInto('subscribers')
          .values(fresh.map((row) => ({ ...row, status, ...consent })))
          .onConflict((conflict) => conflict.column('address').doNothing())
          .returning('id')
          .execute()
      : [];
    let confirmed: { id: number }[] = [];
    if (toConfirm.length) {
      confirmed = await tx
        .updateTable('subscribers')
        .set({ status: 'confirmed', updated_at: sql`now()`, ...consent })
        .where('id', 'in', toConfirm)
        .where('status', '=', 'pending')
        .returning('id')
        .execute();
    }
    const changed = [...inserted, ...confirmed].map((row) => Number(row.id));
    await recordStatusEvents(tx, changed, { status, how: importHow(options) });
    if (options.consentBy) return { outcomes, queued: 0 };
    const ids = [...inserted.map((row) => Number(row.id)), ...pending];
    return { outcomes, queued: await queueConfirmations(tx, ids, options.windowSeconds) };
  });
}

async function storedReaders(db: Kysely<Database>, rows: readonly { address: string; mailbox: string }[]) {
  const stored = await db
    .selectFrom('subscribers')
    .select(['id', 'address', 'mailbox', 'status'])
    .where((eb) =>
      eb.or([
        eb(
          'mailbox',
          'in',
          rows.map((row) => row.mailbox),
        ),
        eb(
          'address',
          'in',
          rows.map((row) => row.address),
        ),
      ]),
    )
    .orderBy('id')
    .execute();
  const byAddress = new Map<string, Existing>();
  const byMailbox = new Map<string, Existing>();
  for (const row of stored as Existing[]) {
    byAddress.set(row.address, row);
    const current = byMailbox.get(row.mailbox);
    const subscribed = row.status === 'pending' || row.status === 'confirmed';
    // Rows from before mailboxes were canonical may share one: the subscribed one, else the latest, is the reader.
    if (!current || subscribed || !(current.status === 'pending' || current.status === 'confirmed'))
      byMailbox.set(row.mailbox, row);
  }
  return { byAddress, byMailbox };
}

async function removeById(db: Kysely<Database>, id: number): Promise<boolean> {
  const result = await db.deleteFrom('subscribers').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
