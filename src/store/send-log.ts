// The send log: one row per (edition, subscriber), written before the first mail goes out, so a killed send can
// be resumed without asking the subscribers table who was meant to get it. Every move between states is one
// conditional statement: two processes (or two workers of one) never send the same row, and a write that lost a
// race changes nothing. Times are the database's (now()), so processes on different machines agree.
import { type Kysely, sql, type UpdateObject } from 'kysely';
import { bindQueries } from './_bind.js';
import type { Database, SendState } from './schema.js';
import {
  type HeldSendRow,
  type HeldSendRows,
  handOverMany,
  heldRows,
  recordSentMany,
  type SendRecipient,
  type SentMailRecord,
  startSendingMany,
} from './send-log-batch.js';

export type { HeldSendRow, SendRecipient, SentMailRecord };

/**
 * Which mail of an edition a send concerns: the edition itself (a date alone, or notice 0), or the correction notice
 * of revision `notice` (≥ 2). Each has its own rows, one per reader, so each goes at most once to a reader.
 */
export type SendKey = string | { edition: string; notice: number };

function keyOf(key: SendKey): { edition: string; notice: number } {
  return typeof key === 'string' ? { edition: key, notice: 0 } : key;
}

/** What `worker` asks for when it reserves its next rows. */
export interface SendBatchRequest {
  edition: string;
  /** As in HeldSendRow. */
  notice?: number | undefined;
  worker: string;
  limit: number;
  /** Workers known to be gone: their reservations are taken over at once. */
  deadClaimers: readonly string[];
  /** After this long a reservation of a live-looking worker is taken over too. */
  leaseSeconds: number;
  /**
   * Only rows of readers after this id (the worker's last reservation): the scan starts there instead of stepping
   * over the entries its earlier batches left behind (sent rows leave the index only when it is vacuumed, and PGlite
   * never vacuums). 0 or absent: from the first reader — a worker looks there again once nothing is due after it.
   */
  after?: number | undefined;
}

/** The send log of `digest send`: rows written before sending, reserved, started, handed over, then settled. */
export interface SendLogPort {
  enqueue(key: SendKey): Promise<{ added: number; skipped: number; retried: number }>;
  /** The workers that hold rows of the edition now. */
  claimers(key: SendKey): Promise<string[]>;
  recoverAbandoned(
    key: SendKey,
    deadClaimers: readonly string[],
    leaseSeconds: number,
  ): Promise<{ requeued: number; uncertain: number }>;
  requeueUncertain(key: SendKey): Promise<number>;
  reserveBatch(request: SendBatchRequest): Promise<number[]>;
  /** `revision`: the revision of the edition this mail carries, recorded on the row (the edition's mail only). */
  start(row: HeldSendRow & { revision?: number | undefined }): Promise<SendRecipient | null>;
  handOver(row: HeldSendRow): Promise<boolean>;
  recordSent(row: HeldSendRow, sent: SentMailRecord): Promise<void>;
  /** The three moves above for many rows of one worker, one statement each (store/send-log-batch.ts). */
  startMany(rows: HeldSendRows, revision?: number): Promise<Map<number, SendRecipient>>;
  handOverMany(rows: HeldSendRows): Promise<Set<number>>;
  recordSentMany(rows: HeldSendRows, sent: readonly SentMailRecord[]): Promise<void>;
  recordFailed(row: HeldSendRow, failed: SendFailure): Promise<void>;
  /** One edition's rows by state, and when its next retry is due. */
  counts(key: SendKey): Promise<SendCounts & { nextRetryInMs: number | null }>;
  /** Rows by state over every edition (for /metrics). */
  totals(): Promise<SendCounts>;
  list(
    key: SendKey,
    options: { states: readonly SendState[]; afterId?: number; limit?: number },
  ): Promise<SendLogEntry[]>;
  previewRecipients(
    key: SendKey,
    options?: { afterId?: number; limit?: number },
  ): Promise<{ id: number; address: string }[]>;
}

export function sendLogStore(db: Kysely<Database>): SendLogPort {
  return bindQueries(db, {
    enqueue: enqueueSend,
    claimers: sendClaimers,
    recoverAbandoned,
    requeueUncertain,
    reserveBatch: reserveSendBatch,
    start: startSending,
    startMany: startSendingMany,
    handOver,
    handOverMany,
    recordSent,
    recordSentMany,
    recordFailed,
    counts: sendCounts,
    totals: sendLogCounts,
    list: listSendLog,
    previewRecipients,
  });
}

export type SendCounts = Record<SendState, number> & {
  /** Failed rows that will be tried again (a temporary failure with attempts left); included in `failed`. */
  retrying: number;
};

export interface SendLogEntry {
  subscriberId: number;
  address: string;
  state: SendState;
  attempts: number;
  smtpResponse: string | null;
  /** The revision of the edition the mail carried (or the notice announces). */
  revision: number;
}

const STATES: SendState[] = ['queued', 'sending', 'sent', 'failed', 'uncertain', 'skipped'];

/**
 * Writes a queued row for every reader who should get this mail and has none (one statement; a rerun adds only
 * readers since), queues temporary failures of an earlier run again with fresh attempts, and marks rows still
 * waiting for a reader who is no longer confirmed skipped. The edition goes to every confirmed subscriber; a
 * correction notice of revision N to each reader whose edition mail carried an earlier revision and was sent (or
 * may have been: uncertain).
 */
async function enqueueSend(
  db: Kysely<Database>,
  key: SendKey,
): Promise<{ added: number; skipped: number; retried: number }> {
  const { edition, notice } = keyOf(key);
  const retried = await db
    .updateTable('send_log')
    .set({ state: 'queued', attempts: 0, claimed_by: null, failure: null, updated_at: sql`now()` })
    .where('edition_date', '=', edition)
    .where('notice', '=', notice)
    .where('state', '=', 'failed')
    .where('failure', '=', 'temporary')
    .where('next_attempt_at', 'is', null)
    .executeTakeFirst();
  const added = await (notice === 0
    ? sql`
    INSERT INTO send_log (edition_date, subscriber_id, state)
    SELECT ${edition}::date, id, 'queued' FROM subscribers WHERE status = 'confirmed'
    ON CONFLICT DO NOTHING`
    : sql`
    INSERT INTO send_log (edition_date, subscriber_id, state, notice, revision)
    SELECT l.edition_date, l.subscriber_id, 'queued', ${notice}, ${notice}
    FROM send_log AS l JOIN subscribers AS s ON s.id = l.subscriber_id
    WHERE l.edition_date = ${edition}::date AND l.notice = 0 AND l.revision < ${notice}
      AND l.state IN ('sent', 'uncertain') AND s.status = 'confirmed'
    ON CONFLICT DO NOTHING`
  ).execute(db);
  if (Number(added.numAffectedRows ?? 0) >= ANALYZE_AFTER_ADDING) await analyzeSendLog(db);
  const skipped = await sql`
    UPDATE send_log AS l SET state = 'skipped', claimed_by = NULL, next_attempt_at = NULL, updated_at = now()
    FROM subscribers AS s
    WHERE l.edition_date = ${edition}::date AND l.notice = ${notice} AND s.id = l.subscriber_id
      AND s.status <> 'confirmed' AND l.state IN ('queued', 'failed')
      AND (l.state = 'queued' OR l.next_attempt_at IS NOT NULL)`.execute(db);
  return {
    added: Number(added.numAffectedRows ?? 0),
    skipped: Number(skipped.numAffectedRows ?? 0),
    retried: Number(retried.numUpdatedRows),
  };
}

/** Rows added at once after which the planner's picture of the send log is renewed. */
const ANALYZE_AFTER_ADDING = 1000;

/**
 * The planner's statistics renewed once a send has written its rows. They were taken when the edition had none (the
 * embedded database never renews them by itself; PostgreSQL's autovacuum only after a while): believing the
 * edition holds a row or two, the planner would read each mail's row by walking the edition's whole range of the
 * index, and each mail would cost more the longer the list. Without the right to analyse the table, the send goes
 * on as before.
 */
async function analyzeSendLog(db: Kysely<Database>): Promise<void> {
  await sql`ANALYZE send_log`.execute(db).catch(() => undefined);
}

/** Who holds rows of this edition (queued reservations or mails in flight), for the caller to judge alive or not. */
async function sendClaimers(db: Kysely<Database>, key: SendKey): Promise<string[]> {
  const { edition, notice } = keyOf(key);
  const rows = await db
    .selectFrom('send_log')
    .select('claimed_by')
    .distinct()
    .where('edition_date', '=', edition)
    .where('notice', '=', notice)
    .where('state', 'in', ['queued', 'sending'])
    .where('claimed_by', 'is not', null)
    .execute();
  return rows.map((row) => row.claimed_by!);
}

/**
 * Rows left "sending" by a claimer that is gone, or silent for longer than the lease. One whose terminating dot was
 * never released (no `handed_over_at`) did not reach the reader — a server delivers no mail without its final dot —
 * and is queued again. One released may have been accepted before the process died: it becomes "uncertain".
 */
async function recoverAbandoned(
  db: Kysely<Database>,
  key: SendKey,
  deadClaimers: readonly string[],
  leaseSeconds: number,
): Promise<{ requeued: number; uncertain: number }> {
  const { edition, notice } = keyOf(key);
  const abandoned = sql`edition_date = ${edition}::date AND notice = ${notice} AND state = 'sending'
      AND (claimed_by = ANY(${sql.val([...deadClaimers])}::text[])
           OR claimed_at < now() - make_interval(secs => ${leaseSeconds}::double precision))`;
  const requeued = await sql`
    UPDATE send_log SET state = 'queued', claimed_by = NULL, next_attempt_at = NULL, updated_at = now()
    WHERE ${abandoned} AND handed_over_at IS NULL`.execute(db);
  const uncertain = await sql`
    UPDATE send_log SET state = 'uncertain', updated_at = now()
    WHERE ${abandoned} AND handed_over_at IS NOT NULL`.execute(db);
  return {
    requeued: Number(requeued.numAffectedRows ?? 0),
    uncertain: Number(uncertain.numAffectedRows ?? 0),
  };
}

/** The update of one edition's row for one reader, only while `worker` holds it. */
function heldRow(db: Kysely<Database>, { edition, subscriberId, worker, notice = 0 }: HeldSendRow) {
  return db
    .updateTable('send_log')
    .where('edition_date', '=', edition)
    .where('notice', '=', notice)
    .where('subscriber_id', '=', subscriberId)
    .where('claimed_by', '=', worker);
}

/** handOverMany for one row: false when the row is no longer this worker's (the mail must not be finished). */
async function handOver(db: Kysely<Database>, row: HeldSendRow): Promise<boolean> {
  return (await handOverMany(db, heldRows([row]))).has(row.subscriberId);
}

/** `--resend-uncertain`: uncertain rows are queued again (their readers may get the mail twice). */
async function requeueUncertain(db: Kysely<Database>, key: SendKey): Promise<number> {
  const { edition, notice } = keyOf(key);
  const result = await db
    .updateTable('send_log')
    .set({ state: 'queued', claimed_by: null, next_attempt_at: null, updated_at: sql`now()` })
    .where('edition_date', '=', edition)
    .where('notice', '=', notice)
    .where('state', '=', 'uncertain')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Reserves up to `limit` rows for `worker`: queued ones, and failed ones whose retry is due, not reserved by a live
 * claimer. `FOR UPDATE SKIP LOCKED` lets several processes on PostgreSQL take disjoint batches at once.
 */
async function reserveSendBatch(
  db: Kysely<Database>,
  { edition, notice = 0, worker, limit, deadClaimers, leaseSeconds, after = 0 }: SendBatchRequest,
): Promise<number[]> {
  // `state IN (…)` matches the partial index send_log_due (migration 016): the batch is read from the rows still
  // due, never from the ones already sent. The rows are picked once, in a CTE: as `IN (subquery)` the planner may run the locking subquery again per row
  // of a join and reserve far more than `limit` (one process then took the whole send).
  const result = await sql<{ subscriber_id: number }>`
    WITH picked AS MATERIALIZED (
      SELECT subscriber_id FROM send_log
      WHERE edition_date = ${edition}::date AND notice = ${notice} AND subscriber_id > ${after}
        AND state IN ('queued', 'failed') AND (state = 'queued' OR next_attempt_at <= now())
        AND (claimed_by IS NULL OR claimed_by = ANY(${sql.val([...deadClaimers])}::text[])
             OR claimed_at < now() - make_interval(secs => ${leaseSeconds}::double precision))
      ORDER BY subscriber_id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED)
    UPDATE send_log AS l SET claimed_by = ${worker}, claimed_at = now(), updated_at = now()
    FROM picked
    WHERE l.edition_date = ${edition}::date AND l.notice = ${notice} AND l.subscriber_id = picked.subscriber_id
    RETURNING l.subscriber_id`.execute(db);
  return result.rows.map((row) => Number(row.subscriber_id)).sort((a, b) => a - b);
}

/** startSendingMany for one row: the reader's recipient, or null (the reader left: the row is marked skipped). */
async function startSending(
  db: Kysely<Database>,
  row: HeldSendRow & { revision?: number | undefined },
): Promise<SendRecipient | null> {
  const started = await startSendingMany(db, heldRows([row]), row.revision);
  return started.get(row.subscriberId) ?? null;
}

/**
 * The mail failed: tried again after `retryInMs` in this run, or (null) not in this run — a temporary failure is
 * tried again by the next run, a permanent one never.
 */
export interface SendFailure {
  smtpResponse: string;
  retryInMs: number | null;
  failure: 'temporary' | 'permanent';
}

/**
 * Settles the row `worker` holds while its mail is in flight — "uncertain" too: another process may have judged
 * this one gone while its server was slow to answer.
 */
async function settleHeld(
  db: Kysely<Database>,
  row: HeldSendRow,
  values: UpdateObject<Database, 'send_log'>,
): Promise<void> {
  await heldRow(db, row)
    .set({ ...values, updated_at: sql`now()` })
    .where('state', 'in', ['sending', 'uncertain'])
    .execute();
}

async function recordSent(db: Kysely<Database>, row: HeldSendRow, sent: SentMailRecord): Promise<void> {
  await recordSentMany(db, heldRows([row]), [sent]);
}

/** The mail failed (see SendFailure); the reservation is released. */
async function recordFailed(db: Kysely<Database>, row: HeldSendRow, failed: SendFailure): Promise<void> {
  const { retryInMs } = failed;
  await settleHeld(db, row, {
    state: 'failed',
    failure: failed.failure,
    smtp_response: failed.smtpResponse.slice(0, 1000),
    claimed_by: null,
    next_attempt_at:
      retryInMs === null ? null : sql`now() + make_interval(secs => ${retryInMs / 1000}::double precision)`,
  });
}

/** Rows by state for one edition, and how long until the next retry is due (null: none waiting). */
async function sendCounts(
  db: Kysely<Database>,
  key: SendKey,
): Promise<SendCounts & { nextRetryInMs: number | null }> {
  const { edition, notice } = keyOf(key);
  return countByState(db, sql`WHERE edition_date = ${edition}::date AND notice = ${notice}`);
}

/** Rows by state over every edition and notice (for /metrics). */
async function sendLogCounts(db: Kysely<Database>): Promise<SendCounts> {
  const { nextRetryInMs: _, ...counts } = await countByState(db, sql``);
  return counts;
}

async function countByState(
  db: Kysely<Database>,
  where: ReturnType<typeof sql>,
): Promise<SendCounts & { nextRetryInMs: number | null }> {
  const result = await sql<{ state: SendState; count: number; retrying: number; wait_ms: number | null }>`
    SELECT state, count(*)::int AS count,
           count(*) FILTER (WHERE state = 'failed' AND next_attempt_at IS NOT NULL)::int AS retrying,
           (extract(epoch FROM min(next_attempt_at) FILTER (WHERE state = 'failed') - now()) * 1000)::float8
             AS wait_ms
    FROM send_log ${where} GROUP BY state`.execute(db);
  const counts = emptyCounts();
  let nextRetryInMs: number | null = null;
  for (const row of result.rows) {
    counts[row.state] = Number(row.count);
    counts.retrying += Number(row.retrying);
    if (row.wait_ms !== null && row.retrying > 0) nextRetryInMs = Math.max(0, Number(row.wait_ms));
  }
  return { ...counts, nextRetryInMs };
}

/** Rows of one edition in the given states with their readers' addresses, in subscriber order (keyset paging). */
async function listSendLog(
  db: Kysely<Database>,
  key: SendKey,
  options: { states: readonly SendState[]; afterId?: number; limit?: number },
): Promise<SendLogEntry[]> {
  const { edition, notice } = keyOf(key);
  const rows = await db
    .selectFrom('send_log as l')
    .innerJoin('subscribers as s', 's.id', 'l.subscriber_id')
    .select(['l.subscriber_id', 's.address', 'l.state', 'l.attempts', 'l.smtp_response', 'l.revision'])
    .where('l.edition_date', '=', edition)
    .where('l.notice', '=', notice)
    .where('l.state', 'in', [...options.states])
    .where('l.subscriber_id', '>', options.afterId ?? 0)
    .orderBy('l.subscriber_id')
    .limit(Math.min(Math.max(options.limit ?? 1000, 1), 10_000))
    .execute();
  return rows.map((row) => ({
    subscriberId: Number(row.subscriber_id),
    address: row.address,
    state: row.state,
    attempts: row.attempts,
    smtpResponse: row.smtp_response,
    revision: row.revision,
  }));
}

/**
 * `--dry-run`: confirmed readers a send would mail now (no row yet, or one still queued or due for a retry), in id
 * order (keyset paging). A correction notice only to readers whose edition mail carried an earlier revision. Reads only.
 */
async function previewRecipients(
  db: Kysely<Database>,
  key: SendKey,
  options: { afterId?: number; limit?: number } = {},
): Promise<{ id: number; address: string }[]> {
  const { edition, notice } = keyOf(key);
  const mailedEarlier = sql`EXISTS (
        SELECT 1 FROM send_log AS e
        WHERE e.edition_date = ${edition}::date AND e.notice = 0 AND e.subscriber_id = s.id
          AND e.revision < ${notice} AND e.state IN ('sent', 'uncertain'))`;
  const result = await sql<{ id: number; address: string }>`
    SELECT s.id, s.address FROM subscribers AS s
    WHERE s.status = 'confirmed' AND s.id > ${options.afterId ?? 0}
      AND ${notice === 0 ? sql`TRUE` : mailedEarlier}
      AND NOT EXISTS (
        SELECT 1 FROM send_log AS l
        WHERE l.edition_date = ${edition}::date AND l.notice = ${notice} AND l.subscriber_id = s.id
          AND NOT (l.state = 'queued' OR (l.state = 'failed' AND l.next_attempt_at IS NOT NULL)))
    ORDER BY s.id LIMIT ${Math.min(Math.max(options.limit ?? 1000, 1), 10_000)}`.execute(db);
  return result.rows.map((row) => ({ id: Number(row.id), address: row.address }));
}

function emptyCounts(): SendCounts {
  const counts = { retrying: 0 } as SendCounts;
  for (const state of STATES) counts[state] = 0;
  return counts;
}
