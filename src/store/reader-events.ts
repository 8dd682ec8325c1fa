// A reader's status history (migration 019): every change of status is written with how it happened, in the
// change's own transaction, so the history never misses a change nor holds one that was rolled back. The store's
// functions that change a status call recordStatusEvents; the reader's export and the desk's reader page read it.
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database, SubscriberStatus } from './schema.js';

/** One change of a reader's status: to what, how (the form, a link, an import by whom, a report…) and when. */
export interface StatusEvent {
  status: SubscriberStatus;
  how: string;
  at: string;
}

/** How a status changed through a reader's own request or a delivery report (imports and adds name who did them). */
export const STATUS_HOW = {
  subscribeForm: 'subscribe form',
  confirmLink: 'confirm link',
  unsubscribeLink: 'unsubscribe link',
  bounce: 'bounce (permanent delivery failures)',
  complaint: 'complaint (a spam report through their mail provider)',
  operator: 'set by the operator',
} as const;

/** Records that each of these readers moved to `status`, `how`; call it in the change's transaction. */
export async function recordStatusEvents(
  db: Kysely<Database>,
  ids: readonly number[],
  change: { status: SubscriberStatus; how: string },
): Promise<void> {
  if (ids.length === 0) return;
  await sql`
    INSERT INTO reader_status_events (subscriber_id, status, how)
    SELECT id, ${change.status}, ${change.how} FROM unnest(${sql.val([...ids])}::int[]) AS id`.execute(db);
}

/** The reader's status history, oldest first. */
export async function statusHistory(db: Kysely<Database>, subscriberId: number): Promise<StatusEvent[]> {
  const rows = await db
    .selectFrom('reader_status_events')
    .select(['status', 'how', 'at'])
    .where('subscriber_id', '=', subscriberId)
    .orderBy('at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ status: row.status, how: row.how, at: row.at.toISOString() }));
}

/** Runs `fn` in a transaction: the caller's when `db` is one already (Kysely does not nest them). */
export function inTransaction<T>(db: Kysely<Database>, fn: (tx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute((tx: Transaction<Database>) => fn(tx));
}
