// Readers: one row per address with its status. Statements are single and conditional, so two processes (the
// server and a CLI command, or two servers on PostgreSQL) never step on each other's change.
import { type Kysely, sql } from 'kysely';
import { bindQueries } from './_bind.js';
import { inTransaction, recordStatusEvents, STATUS_HOW } from './reader-events.js';
import type { Database, SubscriberStatus } from './schema.js';

export interface Subscriber {
  id: number;
  address: string;
  mailbox: string;
  status: SubscriberStatus;
  bounces: number;
  createdAt: string;
  confirmedAt: string | null;
  unsubscribedAt: string | null;
  confirmationSentAt: string | null;
  /** Which subscription of this address the row is in (1, then one more each time a reader who left comes back). */
  generation: number;
  /** When they last complained through their mail provider (a spam report), null if never (migration 014). */
  complainedAt: string | null;
  /** Who asserted consent for a reader added confirmed by hand or import, and when (migration 016); else null. */
  consentBy: string | null;
  consentAt: string | null;
}

/** Readers and their status: subscribe, confirm, unsubscribe, bounces. */
export interface SubscribersPort {
  request(address: string, mailbox: string): Promise<RequestedSubscriber>;
  /** One row per mailbox (a variant of a stored reader's address is that reader); see requestSubscriptions. */
  requestMany(requests: readonly { address: string; mailbox: string }[]): Promise<RequestedSubscriber[]>;
  /** The operator's add: the row as given, whatever it was. */
  put(address: string, mailbox: string, status: SubscriberStatus): Promise<Subscriber>;
  get(by: { id: number } | { address: string } | { mailbox: string }): Promise<Subscriber | null>;
  claimConfirmationMail(id: number, withinSeconds: number): Promise<boolean>;
  /** Moves the reader to `status` when they are in one of `from` now; null otherwise. */
  setStatus(
    id: number,
    status: SubscriberStatus,
    from: readonly SubscriberStatus[],
  ): Promise<Subscriber | null>;
  recordBounce(id: number, limit: number): Promise<Subscriber | null>;
  /** A complaint: stamps its time, and unsubscribes a pending or confirmed reader at that same time. */
  recordComplaint(id: number): Promise<Subscriber | null>;
  remove(address: string): Promise<boolean>;
  list(options?: { status?: SubscriberStatus; afterId?: number; limit?: number }): Promise<Subscriber[]>;
  count(): Promise<Record<SubscriberStatus, number>>;
}

export function subscribersStore(db: Kysely<Database>): SubscribersPort {
  return bindQueries(db, {
    request: requestSubscription,
    requestMany: requestSubscriptions,
    put: putSubscriber,
    get: getSubscriber,
    claimConfirmationMail,
    setStatus: setSubscriberStatus,
    recordBounce,
    recordComplaint,
    remove: removeSubscriber,
    list: listSubscribers,
    count: countSubscribers,
  });
}

export const COLUMNS = [
  'id',
  'address',
  'mailbox',
  'status',
  'bounces',
  'created_at',
  'confirmed_at',
  'unsubscribed_at',
  'confirmation_sent_at',
  'generation',
  'complained_at',
  'consent_by',
  'consent_at',
] as const;

export type Row = {
  id: number;
  address: string;
  mailbox: string;
  status: SubscriberStatus;
  bounces: number;
  created_at: Date;
  confirmed_at: Date | null;
  unsubscribed_at: Date | null;
  confirmation_sent_at: Date | null;
  generation: number;
  complained_at: Date | null;
  consent_by: string | null;
  consent_at: Date | null;
};

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function toSubscriber(row: Row): Subscriber {
  return {
    id: Number(row.id),
    address: row.address,
    mailbox: row.mailbox,
    status: row.status,
    bounces: row.bounces,
    createdAt: row.created_at.toISOString(),
    confirmedAt: iso(row.confirmed_at),
    unsubscribedAt: iso(row.unsubscribed_at),
    confirmationSentAt: iso(row.confirmation_sent_at),
    generation: Number(row.generation),
    complainedAt: iso(row.complained_at),
    consentBy: row.consent_by,
    consentAt: iso(row.consent_at),
  };
}

/** A subscribe request's row as it is now; `fresh` when the request began a subscription (new, or back after leaving). */
export type RequestedSubscriber = Subscriber & { fresh: boolean };

/**
 * A subscribe request: a new mailbox becomes `pending`; an `unsubscribed` or `bounced` one is `pending` again (it
 * must confirm anew); a `pending` or `confirmed` one is left as it is. Returns the row as it is now.
 */
async function requestSubscription(
  db: Kysely<Database>,
  address: string,
  mailbox: string,
): Promise<RequestedSubscriber> {
  const [subscriber] = await requestSubscriptions(db, [{ address, mailbox }]);
  return subscriber!;
}

/**
 * Many requests in one statement (a burst on `digest serve`): each mailbox once, in the order given. One reader is
 * one mailbox (core/email-address.ts `canonicalMailbox`): a request for a variant of a stored reader's address (its
 * dots, a tag, the provider's other domain) is that reader's row, whose address stays as first typed. A new mailbox
 * is pending under the address its first request typed; one that left (unsubscribed, bounced) is pending again in
 * a new subscription (its generation goes up and its confirmation window starts over, so it gets a new
 * confirmation mail); a pending or confirmed one is unchanged.
 */
export async function requestSubscriptions(
  db: Kysely<Database>,
  requests: readonly { address: string; mailbox: string }[],
): Promise<RequestedSubscriber[]> {
  if (requests.length === 0) return [];
  return inTransaction(db, async (tx) => {
    const requested = await storeRequests(tx, requests);
    // A subscription begun (new, or back after leaving): pending through the form, in the history.
    const begun = new Set(requested.filter((row) => row.fresh).map((row) => row.id));
    await recordStatusEvents(tx, [...begun], { status: 'pending', how: STATUS_HOW.subscribeForm });
    return requested;
  });
}

async function storeRequests(
  db: Kysely<Database>,
  requests: readonly { address: string; mailbox: string }[],
): Promise<RequestedSubscriber[]> {
  const rowAddress = await addressesByMailbox(db, requests);
  const before = new Map([...rowAddress.values()].map((row) => [row.address, row.status]));
  const targets = new Map<string, string>();
  for (const { address, mailbox } of requests) {
    if (!rowAddress.has(mailbox)) rowAddress.set(mailbox, { address, status: null });
    targets.set(rowAddress.get(mailbox)!.address, mailbox);
  }
  const left = sql`subscribers.status IN ('unsubscribed', 'bounced')`;
  const rows = await db
    .insertInto('subscribers')
    .values([...targets].map(([address, mailbox]) => ({ address, mailbox, status: 'pending' as const })))
    .onConflict((conflict) =>
      conflict.column('address').doUpdateSet({
        status: sql`CASE WHEN ${left} THEN 'pending' ELSE subscribers.status END`,
        generation: sql`CASE WHEN ${left} THEN subscribers.generation + 1 ELSE subscribers.generation END`,
        confirmation_sent_at: sql`CASE WHEN ${left} THEN NULL ELSE subscribers.confirmation_sent_at END`,
        updated_at: sql`now()`,
      }),
    )
    .returning(COLUMNS)
    .execute();
  const byAddress = new Map(rows.map((row) => [(row as Row).address, toSubscriber(row as Row)]));
  return requests.map(({ mailbox }) => {
    const address = rowAddress.get(mailbox)!.address;
    const status = before.get(address);
    const fresh =
      status === undefined || status === null || status === 'unsubscribed' || status === 'bounced';
    return { ...byAddress.get(address)!, fresh };
  });
}

/**
 * The stored row each requested mailbox already has: the one with the very address asked for, else a reader still
 * subscribed (pending, confirmed), else the latest. (Rows stored before mailboxes were canonical may share one.)
 */
async function addressesByMailbox(
  db: Kysely<Database>,
  requests: readonly { address: string; mailbox: string }[],
): Promise<Map<string, { address: string; status: SubscriberStatus | null }>> {
  const mailboxes = [...new Set(requests.map((request) => request.mailbox))];
  const asked = new Set(requests.map((request) => request.address));
  const rows = await db
    .selectFrom('subscribers')
    .select(['id', 'address', 'mailbox', 'status'])
    .where('mailbox', 'in', mailboxes)
    .execute();
  const rank = (row: { id: number; address: string; status: SubscriberStatus }) =>
    (asked.has(row.address) ? 2 ** 40 : 0) +
    (row.status === 'pending' || row.status === 'confirmed' ? 2 ** 39 : 0) +
    Number(row.id);
  const best = new Map<string, (typeof rows)[number]>();
  for (const row of rows) {
    const current = best.get(row.mailbox);
    if (!current || rank(row) > rank(current)) best.set(row.mailbox, row);
  }
  return new Map([...best].map(([mailbox, row]) => [mailbox, { address: row.address, status: row.status }]));
}

/** Adds an address with a given status (CLI `subscribers add` / `import`); an existing row is updated to it. */
async function putSubscriber(
  db: Kysely<Database>,
  address: string,
  mailbox: string,
  status: SubscriberStatus,
): Promise<Subscriber> {
  const stamp = status === 'confirmed' ? { confirmed_at: sql<Date>`now()` } : {};
  return inTransaction(db, async (tx) => {
    const before = await tx
      .selectFrom('subscribers')
      .select('status')
      .where('address', '=', address)
      .executeTakeFirst();
    const row = await tx
      .insertInto('subscribers')
      .values({ address, mailbox, status, ...stamp })
      .onConflict((conflict) =>
        conflict.column('address').doUpdateSet({ status, updated_at: sql`now()`, ...stamp }),
      )
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    if (before?.status !== status) {
      await recordStatusEvents(tx, [Number(row.id)], { status, how: STATUS_HOW.operator });
    }
    return toSubscriber(row as Row);
  });
}

/** A reader by row, by address, or by mailbox (the one still subscribed, else the latest, when several share it). */
export async function getSubscriber(
  db: Kysely<Database>,
  by: { id: number } | { address: string } | { mailbox: string },
): Promise<Subscriber | null> {
  const query = db.selectFrom('subscribers').select(COLUMNS);
  const row = await ('id' in by
    ? query.where('id', '=', by.id)
    : 'address' in by
      ? query.where('address', '=', by.address)
      : query
          .where('mailbox', '=', by.mailbox)
          .orderBy(sql`status IN ('pending', 'confirmed')`, 'desc')
          .orderBy('id', 'desc')
          .limit(1)
  ).executeTakeFirst();
  return row ? toSubscriber(row as Row) : null;
}

/**
 * Claims the right to send one confirmation mail to this mailbox: true (and stamped) when none was sent to any
 * address of the mailbox within `withinSeconds`, so at most one confirmation mail per inbox per hour.
 */
async function claimConfirmationMail(
  db: Kysely<Database>,
  id: number,
  withinSeconds: number,
): Promise<boolean> {
  const result = await sql<{ id: number }>`
    UPDATE subscribers AS s SET confirmation_sent_at = now()
    WHERE s.id = ${id}
      AND NOT EXISTS (
        SELECT 1 FROM subscribers AS o
        WHERE o.mailbox = s.mailbox
          AND o.confirmation_sent_at > now() - make_interval(secs => ${withinSeconds}::double precision)
      )
    RETURNING s.id`.execute(db);
  return result.rows.length > 0;
}

/** Moves a subscriber to a status, only from the statuses given (e.g. confirm only a pending one). */
export async function setSubscriberStatus(
  db: Kysely<Database>,
  id: number,
  status: SubscriberStatus,
  from: readonly SubscriberStatus[],
): Promise<Subscriber | null> {
  const stamp =
    status === 'confirmed'
      ? { confirmed_at: sql<Date>`now()` }
      : status === 'unsubscribed'
        ? { unsubscribed_at: sql<Date>`now()` }
        : {};
  return inTransaction(db, async (tx) => {
    const row = await tx
      .updateTable('subscribers')
      .set({ status, updated_at: sql`now()`, ...stamp })
      .where('id', '=', id)
      .where('status', 'in', [...from])
      .returning(COLUMNS)
      .executeTakeFirst();
    if (row) await recordStatusEvents(tx, [id], { status, how: STATUS_HOW_BY_STATUS[status] });
    return row ? toSubscriber(row as Row) : null;
  });
}

/** A status a reader's own link sets (confirm, unsubscribe); any other is the operator's. */
const STATUS_HOW_BY_STATUS: Record<SubscriberStatus, string> = {
  pending: STATUS_HOW.operator,
  confirmed: STATUS_HOW.confirmLink,
  unsubscribed: STATUS_HOW.unsubscribeLink,
  bounced: STATUS_HOW.operator,
};

/** Counts a permanent delivery failure; at `limit` the address is marked bounced. Returns the row as it is now. */
async function recordBounce(db: Kysely<Database>, id: number, limit: number): Promise<Subscriber | null> {
  return inTransaction(db, async (tx) => {
    const before = await statusForUpdate(tx, id);
    const row = await tx
      .updateTable('subscribers')
      .set({
        bounces: sql`bounces + 1`,
        status: sql`CASE WHEN bounces + 1 >= ${limit} THEN 'bounced' ELSE status END`,
        updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .returning(COLUMNS)
      .executeTakeFirst();
    if (row && row.status !== before?.status) {
      await recordStatusEvents(tx, [id], { status: row.status, how: STATUS_HOW.bounce });
    }
    return row ? toSubscriber(row as Row) : null;
  });
}

/** The reader's status and complaint time, the row locked until the transaction ends. */
function statusForUpdate(db: Kysely<Database>, id: number) {
  return db
    .selectFrom('subscribers')
    .select(['status', 'complained_at'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * A complaint (a spam report through the provider). A pending or confirmed reader leaves: unsubscribed, with the
 * complaint's time as the unsubscribe's — one statement, one now() — so what followed an edition counts it once, as a
 * complaint (store/mail-outcomes.ts). A reader already gone keeps their status; their first complaint is still
 * stamped, a repeated one keeps the earlier time (providers report one complaint more than once). A complaint after
 * an unsubscribe is stamped after it even within the clock's resolution, so the two never read as one event.
 */
async function recordComplaint(db: Kysely<Database>, id: number): Promise<Subscriber | null> {
  return inTransaction(db, async (tx) => {
    const before = await statusForUpdate(tx, id);
    const row = await stampComplaint(tx, id);
    const stamped = row?.complained_at?.getTime() !== before?.complained_at?.getTime();
    if (row && (stamped || row.status !== before?.status)) {
      await recordStatusEvents(tx, [id], { status: row.status, how: STATUS_HOW.complaint });
    }
    return row ? toSubscriber(row as Row) : null;
  });
}

async function stampComplaint(db: Kysely<Database>, id: number) {
  const leaves = sql<boolean>`status IN ('pending', 'confirmed')`;
  return db
    .updateTable('subscribers')
    .set({
      complained_at: sql`CASE WHEN ${leaves} THEN now()
        WHEN complained_at IS NULL THEN greatest(now(), unsubscribed_at + interval '1 millisecond')
        ELSE complained_at END`,
      unsubscribed_at: sql`CASE WHEN ${leaves} THEN now() ELSE unsubscribed_at END`,
      status: sql`CASE WHEN ${leaves} THEN 'unsubscribed' ELSE status END`,
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirst();
}

/** Deletes the person's data: their row and (cascade) their send-log rows. True when there was one. */
async function removeSubscriber(db: Kysely<Database>, address: string): Promise<boolean> {
  const result = await db.deleteFrom('subscribers').where('address', '=', address).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** A page of subscribers in id order (keyset paging: `afterId`), optionally of one status. */
async function listSubscribers(
  db: Kysely<Database>,
  options: { status?: SubscriberStatus; afterId?: number; limit?: number } = {},
): Promise<Subscriber[]> {
  let query = db
    .selectFrom('subscribers')
    .select(COLUMNS)
    .where('id', '>', options.afterId ?? 0)
    .orderBy('id')
    .limit(Math.min(Math.max(options.limit ?? 1000, 1), 10_000));
  if (options.status) query = query.where('status', '=', options.status);
  const rows = await query.execute();
  return rows.map((row) => toSubscriber(row as Row));
}

async function countSubscribers(db: Kysely<Database>): Promise<Record<SubscriberStatus, number>> {
  const rows = await db
    .selectFrom('subscribers')
    .select(['status', sql<number>`count(*)::int`.as('count')])
    .groupBy('status')
    .execute();
  const counts: Record<SubscriberStatus, number> = { pending: 0, confirmed: 0, unsubscribed: 0, bounced: 0 };
  for (const row of rows) counts[row.status] = Number(row.count);
  return counts;
}
