// What followed an edition's mail, from what the store records today: mails sent (the send log's count of them,
// kept with its rows: migration 020), bounces (a
// permanent failure when it was sent, or its reader marked bounced later), complaints and unsubscribes of its
// readers, between its first mail and the next mailed edition's first mail. A complaint unsubscribes its reader at
// the complaint's own time (subscribers.complained_at, migration 014), so it counts once, as a complaint, and not
// among the unsubscribes; an unsubscribe from before migration 014 has no complaint time and reads as an
// unsubscribe. Only the edition's own mails count (notice 0): a correction notice (migration 013) is not another
// edition mailed.
import { type Kysely, sql } from 'kysely';
import { bindQueries } from './_bind.js';
import { isoTimestamp } from './_values.js';
import type { Database } from './schema.js';

export interface MailOutcomes {
  /** Mails handed to the server and accepted. */
  sent: number;
  /** Refused for good when sent, or their reader marked bounced (the provider's report) before the next edition. */
  bounced: number;
  /** Readers of this edition who complained (a spam report through their provider) before the next edition's first mail. */
  complained: number;
  /** Readers of this edition who left, a complaint apart, before the next edition's first mail. */
  unsubscribed: number;
  /** When its first mail was queued (ISO), null when it was never mailed. */
  firstMailAt: string | null;
}

export interface MailOutcomesPort {
  /** What followed the edition's mail: counted until the next mailed edition's first mail, or until now. */
  forEdition(edition: string): Promise<MailOutcomes>;
  /** Readers whose complaint is on record, over every edition (for /metrics). */
  complaints(): Promise<number>;
}

export function mailOutcomesStore(db: Kysely<Database>): MailOutcomesPort {
  return bindQueries(db, { forEdition: mailOutcomes, complaints: countComplaints });
}

async function mailOutcomes(db: Kysely<Database>, edition: string): Promise<MailOutcomes> {
  const result = await sql<{
    sent: number;
    bounced: number;
    complained: number;
    unsubscribed: number;
    first_mail_at: Date | null;
  }>`
    WITH window_of AS (
      SELECT (SELECT min(created_at) FROM send_log WHERE edition_date = ${edition}::date AND notice = 0) AS starts,
             (SELECT min(created_at) FROM send_log WHERE notice = 0 AND edition_date = (
                SELECT min(edition_date) FROM send_log WHERE edition_date > ${edition}::date AND notice = 0)) AS ends
    ),
    -- Only readers who left, bounced or complained can count below: the join starts from them (few), never from
    -- every row of the edition (a whole list, each time the trend asks for one of its editions).
    gone AS (
      SELECT s.status, s.updated_at, s.unsubscribed_at, s.complained_at
      FROM subscribers s JOIN send_log l ON l.edition_date = ${edition}::date AND l.notice = 0
        AND l.subscriber_id = s.id AND l.state = 'sent'
      WHERE s.status IN ('bounced', 'unsubscribed') OR s.complained_at IS NOT NULL
    )
    SELECT
      coalesce((SELECT sent FROM send_log_sent WHERE edition_date = ${edition}::date AND notice = 0), 0) AS sent,
      ((SELECT count(*) FROM send_log WHERE edition_date = ${edition}::date AND notice = 0 AND state = 'failed'
          AND failure = 'permanent')
       + (SELECT count(*) FROM gone r WHERE r.status = 'bounced' AND r.updated_at >= w.starts
          AND (w.ends IS NULL OR r.updated_at < w.ends)))::int AS bounced,
      (SELECT count(*) FROM gone r WHERE r.complained_at >= w.starts
        AND (w.ends IS NULL OR r.complained_at < w.ends))::int AS complained,
      (SELECT count(*) FROM gone r WHERE r.status = 'unsubscribed' AND r.unsubscribed_at >= w.starts
        AND (w.ends IS NULL OR r.unsubscribed_at < w.ends)
        -- Left by complaining: the complaint's own time (recordComplaint), counted above.
        AND r.complained_at IS DISTINCT FROM r.unsubscribed_at)::int AS unsubscribed,
      w.starts AS first_mail_at
    FROM window_of w`.execute(db);
  const row = result.rows[0];
  return {
    sent: Number(row?.sent ?? 0),
    bounced: Number(row?.bounced ?? 0),
    complained: Number(row?.complained ?? 0),
    unsubscribed: Number(row?.unsubscribed ?? 0),
    firstMailAt: row?.first_mail_at ? isoTimestamp(row.first_mail_at) : null,
  };
}

async function countComplaints(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('subscribers')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('complained_at', 'is not', null)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}
