// The send log's per-mail moves for many rows in one statement each: a worker with many mails in flight starts,
// hands over and settles them together. Each row still moves on its own condition (held by this worker, in the
// state the move starts from), exactly as a statement per row would: a row that lost a race is left out of the
// answer and changed nowhere. One statement for many rows matters on the embedded database, where each statement
// costs far more than the rows it touches.
import { type Kysely, sql } from 'kysely';
import type { ReaderPreferences } from '../core/types.js';
import { toPreferences } from './preferences.js';
import type { Database } from './schema.js';

/** One reader's row of one edition (or of one of its correction notices), as the worker that reserved it holds it. */
export interface HeldSendRow {
  edition: string;
  subscriberId: number;
  worker: string;
  /** The correction notice of this revision; absent or 0: the edition itself. */
  notice?: number | undefined;
}

export interface SendRecipient {
  subscriberId: number;
  address: string;
  /** The reader's subscription (their links are bound to it). */
  generation: number;
  /** This attempt's number (1 for the first). */
  attempt: number;
  /** The reader's choices as they are when their mail starts (a change later counts from the next edition). */
  preferences: ReaderPreferences | null;
  /**
   * The latest revision of the edition this reader was sent before this mail (their edition's mail, or an earlier
   * correction notice; sent or uncertain), null when none: what a correction notice calls "the edition you had".
   */
  hadRevision: number | null;
}

/** The server accepted the mail: its answer and the mail's Message-ID. */
export interface SentMailRecord {
  smtpResponse: string;
  messageId: string;
}

/** Rows one worker holds of one mail (the edition or one correction notice). */
export interface HeldSendRows {
  edition: string;
  notice?: number | undefined;
  worker: string;
  subscriberIds: readonly number[];
}

/** The row of each reader, as `rows` holds them. */
export function heldRows(rows: HeldSendRow[]): HeldSendRows {
  const first = rows[0]!;
  for (const row of rows) {
    if (
      row.edition !== first.edition ||
      (row.notice ?? 0) !== (first.notice ?? 0) ||
      row.worker !== first.worker
    )
      throw new Error('A batch of send-log rows holds rows of one mail and one worker only.');
  }
  return {
    edition: first.edition,
    notice: first.notice,
    worker: first.worker,
    subscriberIds: rows.map((row) => row.subscriberId),
  };
}

const ids = (rows: HeldSendRows) => sql`${sql.val([...rows.subscriberIds])}::integer[]`;

/**
 * Right before their SMTP transactions: the reserved rows become "sending", each only if its reader is still
 * confirmed. Returns each started reader's recipient; a row left out was skipped (its reader left).
 */
export async function startSendingMany(
  db: Kysely<Database>,
  rows: HeldSendRows,
  revision?: number,
): Promise<Map<number, SendRecipient>> {
  const { edition, notice = 0, worker } = rows;
  const result = await sql<{
    subscriber_id: number;
    address: string;
    generation: number;
    attempts: number;
    has_preferences: boolean;
    language: string | null;
    topics: unknown;
    levels: unknown;
    only_my_topics: boolean | null;
    had_revision: number | null;
  }>`
    UPDATE send_log AS l SET state = 'sending', attempts = l.attempts + 1, handed_over_at = NULL, claimed_at = now(),
      updated_at = now(), revision = coalesce(${revision ?? null}::integer, l.revision)
    FROM subscribers AS s LEFT JOIN subscriber_preferences AS p ON p.subscriber_id = s.id
    WHERE l.edition_date = ${edition}::date AND l.notice = ${notice} AND l.subscriber_id = ANY(${ids(rows)})
      AND l.claimed_by = ${worker}
      AND l.state IN ('queued', 'failed') AND s.id = l.subscriber_id AND s.status = 'confirmed'
    RETURNING l.subscriber_id, s.address, s.generation, l.attempts, p.subscriber_id IS NOT NULL AS has_preferences,
      p.language, p.topics, p.levels, p.only_my_topics,
      (SELECT max(e.revision) FROM send_log AS e
       WHERE e.edition_date = l.edition_date AND e.subscriber_id = l.subscriber_id AND e.notice <> l.notice
         AND e.state IN ('sent', 'uncertain')) AS had_revision`.execute(db);
  const started = new Map<number, SendRecipient>();
  for (const row of result.rows) {
    const subscriberId = Number(row.subscriber_id);
    started.set(subscriberId, {
      subscriberId,
      address: row.address,
      generation: Number(row.generation),
      attempt: Number(row.attempts),
      preferences: row.has_preferences
        ? toPreferences({ ...row, only_my_topics: !!row.only_my_topics })
        : null,
      hadRevision: row.had_revision === null ? null : Number(row.had_revision),
    });
  }
  const left = rows.subscriberIds.filter((id) => !started.has(id));
  if (left.length > 0) {
    await sql`
      UPDATE send_log SET state = 'skipped', claimed_by = NULL, next_attempt_at = NULL, updated_at = now()
      WHERE edition_date = ${edition}::date AND notice = ${notice}
        AND subscriber_id = ANY(${sql.val(left)}::integer[])
        AND claimed_by = ${worker} AND state IN ('queued', 'failed')`.execute(db);
  }
  return started;
}

/**
 * The last step before the server may accept each mail, recorded before its terminating dot is written. Returns
 * the readers whose rows are still this worker's; a mail whose row is not (another process judged this one gone
 * and queued it again) must not be finished.
 */
export async function handOverMany(db: Kysely<Database>, rows: HeldSendRows): Promise<Set<number>> {
  const { edition, notice = 0, worker } = rows;
  const result = await sql<{ subscriber_id: number }>`
    UPDATE send_log SET handed_over_at = now(), updated_at = now()
    WHERE edition_date = ${edition}::date AND notice = ${notice} AND subscriber_id = ANY(${ids(rows)})
      AND claimed_by = ${worker} AND state = 'sending'
    RETURNING subscriber_id`.execute(db);
  return new Set(result.rows.map((row) => Number(row.subscriber_id)));
}

/**
 * The server accepted each mail: its answer and Message-ID. A row is settled while `worker` holds it — "uncertain"
 * too: another process may have judged this one gone while its server was slow to answer.
 */
export async function recordSentMany(
  db: Kysely<Database>,
  rows: HeldSendRows,
  sent: readonly SentMailRecord[],
): Promise<void> {
  const { edition, notice = 0, worker } = rows;
  const responses = sent.map((mail) => mail.smtpResponse.slice(0, 1000));
  const messageIds = sent.map((mail) => mail.messageId.slice(0, 300));
  await sql`
    UPDATE send_log AS l SET state = 'sent', smtp_response = v.response, message_id = v.message_id,
      next_attempt_at = NULL, updated_at = now()
    FROM unnest(${ids(rows)}, ${sql.val(responses)}::text[], ${sql.val(messageIds)}::text[])
      AS v(subscriber_id, response, message_id)
    WHERE l.edition_date = ${edition}::date AND l.notice = ${notice} AND l.subscriber_id = ANY(${ids(rows)})
      AND l.subscriber_id = v.subscriber_id AND l.claimed_by = ${worker} AND l.state IN ('sending', 'uncertain')`.execute(
    db,
  );
}
