// The outbox: mails caused by a request (a confirmation, a welcome), written in the request's own transaction and
// delivered by a worker. A row is `queued` until a worker claims it (`sending`), then `sent` once the SMTP server
// answered 250, `failed` when given up (with the reason), `skipped` when it no longer applies (the reader confirmed,
// left or subscribed anew), or `uncertain` when a worker died after the terminating dot was released but before the
// answer was recorded (the server may have the mail: it is not sent twice).
import { type Kysely, sql } from 'kysely';
import { bindQueries } from './_bind.js';
import type { Database, OutboxKind } from './schema.js';
import {
  type RequestedSubscriber,
  requestSubscriptions,
  type Subscriber,
  setSubscriberStatus,
} from './subscribers.js';

/** The outbox of mails requests cause (confirmation, welcome). */
export interface OutboxPort {
  /** Stores subscribe requests and queues their confirmation mails in one transaction (see the function below). */
  requestSubscriptions(
    requests: readonly { address: string; mailbox: string }[],
    windowSeconds: number,
  ): Promise<{ subscribers: RequestedSubscriber[]; queued: number }>;
  confirmSubscription(id: number, generation: number, welcome: boolean): Promise<Subscriber | null>;
  claim(worker: string, limit: number, leaseSeconds: number): Promise<OutboxMail[]>;
  handOver(id: number, worker: string): Promise<boolean>;
  settle(id: number, worker: string, outcome: OutboxOutcome): Promise<void>;
  health(): Promise<OutboxHealth>;
  mailProblems(subscriberIds: readonly number[]): Promise<MailProblem[]>;
}

export function outboxStore(db: Kysely<Database>): OutboxPort {
  return bindQueries(db, {
    requestSubscriptions: requestSubscriptionsWithMail,
    confirmSubscription,
    claim: claimOutbox,
    handOver: outboxHandOver,
    settle: settleOutbox,
    health: outboxHealth,
    mailProblems,
  });
}

export interface OutboxMail {
  id: number;
  kind: OutboxKind;
  subscriberId: number;
  generation: number;
  /** Attempts including this one. */
  attempts: number;
  createdAt: Date;
}

export interface OutboxHealth {
  /** Mails waiting for the worker (queued or being sent). */
  waiting: number;
  /** Of those, mails that failed at least once and wait for their next attempt. */
  retrying: number;
  /** The oldest waiting mail's age in seconds (0 when none wait). */
  oldestWaitingSeconds: number;
}

/** A reader's latest mail that has not gone out (for `digest subscribers list`). */
export interface MailProblem {
  subscriberId: number;
  kind: OutboxKind;
  state: 'queued' | 'sending' | 'failed' | 'uncertain';
  attempts: number;
  lastError: string | null;
}

/**
 * Stores a batch of subscribe requests and, in the same transaction, queues one confirmation mail per inbox for
 * each pending reader that has had none within `windowSeconds` (a reader who left and came back starts anew). The
 * claiming statement runs whether or not a reader is pending, so a request for a subscribed address takes the same
 * path (and about the same time) as one for a new address.
 */
async function requestSubscriptionsWithMail(
  db: Kysely<Database>,
  requests: readonly { address: string; mailbox: string }[],
  windowSeconds: number,
): Promise<{ subscribers: RequestedSubscriber[]; queued: number }> {
  if (requests.length === 0) return { subscribers: [], queued: 0 };
  return db.transaction().execute(async (tx) => {
    const subscribers = await requestSubscriptions(tx, requests);
    // One candidate per mailbox: the statement below cannot see its own stamps, so two +tags would both pass.
    const byMailbox = new Map<string, number>();
    for (const subscriber of subscribers) {
      if (subscriber.status === 'pending' && !byMailbox.has(subscriber.mailbox)) {
        byMailbox.set(subscriber.mailbox, subscriber.id);
      }
    }
    return { subscribers, queued: await queueConfirmations(tx, [...byMailbox.values()], windowSeconds) };
  });
}

/**
 * Confirms the subscription `generation` of a pending reader, queuing the welcome mail in the same transaction when
 * asked. Null when the reader is not pending in that subscription (already confirmed, left, or subscribed anew).
 */
async function confirmSubscription(
  db: Kysely<Database>,
  id: number,
  generation: number,
  welcome: boolean,
): Promise<Subscriber | null> {
  return db.transaction().execute(async (tx) => {
    const current = await tx
      .selectFrom('subscribers')
      .select('generation')
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!current || Number(current.generation) !== generation) return null;
    const confirmed = await setSubscriberStatus(tx, id, 'confirmed', ['pending']);
    if (confirmed && welcome) {
      await tx.insertInto('outbox').values({ kind: 'welcome', subscriber_id: id, generation }).execute();
    }
    return confirmed;
  });
}

/**
 * Claims due mails for `worker`: queued ones whose time has come, and ones a dead worker left `sending` before
 * releasing the dot (after `leaseSeconds`). One left `sending` after its dot becomes `uncertain` instead.
 */
async function claimOutbox(
  db: Kysely<Database>,
  worker: string,
  limit: number,
  leaseSeconds: number,
): Promise<OutboxMail[]> {
  const lease = sql`now() - make_interval(secs => ${leaseSeconds}::double precision)`;
  await sql`
    UPDATE outbox SET state = 'uncertain', updated_at = now(),
      last_error = 'the worker stopped after handing the mail to the SMTP server; not sent again'
    WHERE state = 'sending' AND handed_over_at IS NOT NULL AND claimed_at < ${lease}`.execute(db);
  const result = await sql<{
    id: string | number;
    kind: OutboxKind;
    subscriber_id: number;
    generation: number;
    attempts: number;
    created_at: Date;
  }>`
    UPDATE outbox SET state = 'sending', claimed_by = ${worker}, claimed_at = now(), handed_over_at = NULL,
      attempts = attempts + 1, updated_at = now()
    WHERE id IN (
      SELECT id FROM outbox
      WHERE (state = 'queued' AND next_attempt_at <= now())
         OR (state = 'sending' AND handed_over_at IS NULL AND claimed_at < ${lease})
      ORDER BY next_attempt_at, id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED)
    RETURNING id, kind, subscriber_id, generation, attempts, created_at`.execute(db);
  return result.rows
    .map((row) => ({
      id: Number(row.id),
      kind: row.kind,
      subscriberId: Number(row.subscriber_id),
      generation: Number(row.generation),
      attempts: Number(row.attempts),
      createdAt: row.created_at,
    }))
    .sort((a, b) => a.id - b.id);
}

/** Right before the terminating dot: true when the row is still this worker's to send. */
async function outboxHandOver(db: Kysely<Database>, id: number, worker: string): Promise<boolean> {
  const result = await db
    .updateTable('outbox')
    .set({ handed_over_at: sql`now()`, updated_at: sql`now()` })
    .where('id', '=', id)
    .where('state', '=', 'sending')
    .where('claimed_by', '=', worker)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export type OutboxOutcome =
  | { state: 'sent'; response: string }
  | { state: 'skipped'; reason: string }
  | { state: 'failed'; failure: 'temporary' | 'permanent'; error: string }
  /** A temporary failure: tried again after `retryInMs`. */
  | { state: 'queued'; error: string; retryInMs: number };

/** Records what became of a claimed mail (only while the row is still this worker's). */
async function settleOutbox(
  db: Kysely<Database>,
  id: number,
  worker: string,
  outcome: OutboxOutcome,
): Promise<void> {
  const base = db
    .updateTable('outbox')
    .where('id', '=', id)
    .where('state', '=', 'sending')
    .where('claimed_by', '=', worker);
  const now = sql<Date>`now()`;
  if (outcome.state === 'sent') {
    await base
      .set({ state: 'sent', failure: null, last_error: null, updated_at: now, claimed_by: null })
      .execute();
  } else if (outcome.state === 'skipped') {
    await base.set({ state: 'skipped', last_error: outcome.reason, updated_at: now }).execute();
  } else if (outcome.state === 'failed') {
    await base
      .set({ state: 'failed', failure: outcome.failure, last_error: outcome.error, updated_at: now })
      .execute();
  } else {
    await base
      .set({
        state: 'queued',
        failure: 'temporary',
        last_error: outcome.error,
        claimed_by: null,
        next_attempt_at: sql<Date>`now() + make_interval(secs => ${outcome.retryInMs / 1000}::double precision)`,
        updated_at: now,
      })
      .execute();
  }
}

/** The waiting mails, from the partial index only: cheap enough for every /healthz. */
async function outboxHealth(db: Kysely<Database>): Promise<OutboxHealth> {
  const result = await sql<{ waiting: number; retrying: number; oldest: number | null }>`
    SELECT count(*)::int AS waiting, (count(*) FILTER (WHERE failure IS NOT NULL))::int AS retrying,
      extract(epoch FROM now() - min(created_at))::float8 AS oldest
    FROM outbox WHERE state IN ('queued', 'sending')`.execute(db);
  const row = result.rows[0];
  return {
    waiting: Number(row?.waiting ?? 0),
    retrying: Number(row?.retrying ?? 0),
    oldestWaitingSeconds: Math.max(0, Math.round(Number(row?.oldest ?? 0))),
  };
}

/** For each subscriber given, their latest mail when it has not gone out (waiting, failed or uncertain). */
async function mailProblems(db: Kysely<Database>, subscriberIds: readonly number[]): Promise<MailProblem[]> {
  if (subscriberIds.length === 0) return [];
  const result = await sql<{
    subscriber_id: number;
    kind: OutboxKind;
    state: MailProblem['state'] | 'sent' | 'skipped';
    attempts: number;
    last_error: string | null;
  }>`
    SELECT DISTINCT ON (subscriber_id) subscriber_id, kind, state, attempts, last_error
    FROM outbox WHERE subscriber_id = ANY(${sql.val([...subscriberIds])}::int[])
    ORDER BY subscriber_id, id DESC`.execute(db);
  return result.rows
    .filter((row) => row.state !== 'sent' && row.state !== 'skipped')
    .map((row) => ({
      subscriberId: Number(row.subscriber_id),
      kind: row.kind,
      state: row.state as MailProblem['state'],
      attempts: Number(row.attempts),
      lastError: row.last_error,
    }));
}

/** One confirmation mail per pending inbox with none within the window, stamped and queued in one statement. */
export async function queueConfirmations(
  db: Kysely<Database>,
  ids: number[],
  windowSeconds: number,
): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await sql<{ subscriber_id: number }>`
    WITH claimed AS (
      UPDATE subscribers AS s SET confirmation_sent_at = now()
      WHERE s.id = ANY(${sql.val(ids)}::int[]) AND s.status = 'pending'
        AND NOT EXISTS (
          SELECT 1 FROM subscribers AS o
          WHERE o.mailbox = s.mailbox
            AND o.confirmation_sent_at > now() - make_interval(secs => ${windowSeconds}::double precision))
      RETURNING s.id, s.generation)
    INSERT INTO outbox (kind, subscriber_id, generation)
    SELECT 'confirmation', id, generation FROM claimed
    RETURNING subscriber_id`.execute(db);
  return result.rows.length;
}
