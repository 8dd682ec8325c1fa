// What a reader chose (language, topics, levels), one row beside their subscriber row and deleted with it; and
// everything stored about one reader, for `digest subscribers export <email>`.
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { LEVELS, type Level, type ReaderPreferences } from '../core/types.js';
import { bindQueries } from './_bind.js';
import { json } from './_values.js';
import { type ReaderClick, readerClicks, readerCounting } from './clicks.js';
import { type StatusEvent, statusHistory } from './reader-events.js';
import type { Database, OutboxKind, OutboxState, SendState } from './schema.js';
import { getSubscriber, type Subscriber } from './subscribers.js';

/** Readers' preferences, and everything stored about one reader. */
export interface PreferencesPort {
  get(subscriberId: number): Promise<ReaderPreferences | null>;
  /** False when the subscriber is gone. */
  set(subscriberId: number, preferences: ReaderPreferences): Promise<boolean>;
  /** Everything stored about one reader (row, preferences, send log, outbox), or null. */
  exportSubscriber(address: string): Promise<SubscriberExport | null>;
  /** The choices of those of these readers who made some (a send's confirmation counts them). */
  many(subscriberIds: number[]): Promise<ReaderPreferences[]>;
}

export function preferencesStore(db: Kysely<Database>): PreferencesPort {
  return bindQueries(db, {
    get: getPreferences,
    set: setPreferences,
    exportSubscriber,
    many: manyPreferences,
  });
}

type Row = { language: string | null; topics: unknown; levels: unknown; only_my_topics: boolean };

export function toPreferences(row: Row): ReaderPreferences {
  const strings = (value: unknown) =>
    Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
  return {
    language: row.language,
    topics: strings(row.topics),
    levels: strings(row.levels).filter((level): level is Level =>
      (LEVELS as readonly string[]).includes(level),
    ),
    onlyMyTopics: row.only_my_topics,
  };
}

async function getPreferences(db: Kysely<Database>, subscriberId: number): Promise<ReaderPreferences | null> {
  const row = await db
    .selectFrom('subscriber_preferences')
    .select(['language', 'topics', 'levels', 'only_my_topics'])
    .where('subscriber_id', '=', subscriberId)
    .executeTakeFirst();
  return row ? toPreferences(row) : null;
}

async function manyPreferences(db: Kysely<Database>, subscriberIds: number[]): Promise<ReaderPreferences[]> {
  if (!subscriberIds.length) return [];
  const rows = await db
    .selectFrom('subscriber_preferences')
    .select(['language', 'topics', 'levels', 'only_my_topics'])
    .where('subscriber_id', 'in', subscriberIds)
    .execute();
  return rows.map(toPreferences);
}

/** Stores a reader's choices (replacing earlier ones); false when the subscriber row is gone. */
async function setPreferences(
  db: Kysely<Database>,
  subscriberId: number,
  preferences: ReaderPreferences,
): Promise<boolean> {
  const values = {
    language: preferences.language,
    topics: json(preferences.topics),
    levels: json(preferences.levels),
    only_my_topics: preferences.onlyMyTopics,
  };
  const result = await db
    .insertInto('subscriber_preferences')
    .columns(['subscriber_id', 'language', 'topics', 'levels', 'only_my_topics'])
    .expression((eb) =>
      eb
        .selectFrom('subscribers')
        .select([
          'id',
          sql<string | null>`${values.language}::text`.as('language'),
          values.topics.as('topics'),
          values.levels.as('levels'),
          sql<boolean>`${values.only_my_topics}::boolean`.as('only_my_topics'),
        ])
        .where('id', '=', subscriberId),
    )
    .onConflict((conflict) =>
      conflict.column('subscriber_id').doUpdateSet({ ...values, updated_at: sql`now()` }),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export interface SubscriberExport {
  subscriber: Subscriber;
  /** Each change of the reader's status, how and when, oldest first (migration 019). */
  statusHistory: StatusEvent[];
  preferences: ReaderPreferences | null;
  /** The reader's "count my clicks" choice (per-reader analytics): true until they turn it off. */
  countMyClicks: boolean;
  /** Each mail of an edition and each correction notice the reader was sent (or was to be sent). */
  sendLog: {
    edition: string;
    /** The edition's revision the mail carried (a notice: the revision it announces). */
    revision: number;
    /** 0 for the edition itself; a correction notice: the revision it announces (migration 013). */
    notice: number;
    state: SendState;
    attempts: number;
    smtpResponse: string | null;
    messageId: string | null;
    updatedAt: string;
  }[];
  /** The confirmation and welcome mails queued for the reader: what happened to each, never a body or a link. */
  outbox: {
    kind: OutboxKind;
    /** Which subscription of the reader the mail belonged to. */
    generation: number;
    state: OutboxState;
    attempts: number;
    createdAt: string;
    handedOverAt: string | null;
    updatedAt: string;
  }[];
  /** Per-reader counted links only: the items the reader clicked (first click each), else empty. */
  clicks: ReaderClick[];
}

/** Everything stored about one reader, or null when the address is unknown. */
async function exportSubscriber(db: Kysely<Database>, address: string): Promise<SubscriberExport | null> {
  const subscriber = await getSubscriber(db, { address });
  if (!subscriber) return null;
  const [history, preferences, countMyClicks, rows, mails, clicks] = await Promise.all([
    statusHistory(db, subscriber.id),
    getPreferences(db, subscriber.id),
    readerCounting(db, subscriber.id),
    db
      .selectFrom('send_log')
      .select([
        'edition_date',
        'revision',
        'notice',
        'state',
        'attempts',
        'smtp_response',
        'message_id',
        'updated_at',
      ])
      .where('subscriber_id', '=', subscriber.id)
      .orderBy('edition_date')
      .orderBy('notice')
      .execute(),
    db
      .selectFrom('outbox')
      .select(['kind', 'generation', 'state', 'attempts', 'created_at', 'handed_over_at', 'updated_at'])
      .where('subscriber_id', '=', subscriber.id)
      .orderBy('id')
      .execute(),
    readerClicks(db, subscriber.id),
  ]);
  return {
    subscriber,
    statusHistory: history,
    preferences,
    countMyClicks,
    sendLog: rows.map((row) => ({
      edition: row.edition_date,
      revision: row.revision,
      notice: row.notice,
      state: row.state,
      attempts: row.attempts,
      smtpResponse: row.smtp_response,
      messageId: row.message_id,
      updatedAt: row.updated_at.toISOString(),
    })),
    outbox: mails.map((mail) => ({
      kind: mail.kind,
      generation: mail.generation,
      state: mail.state,
      attempts: mail.attempts,
      createdAt: mail.created_at.toISOString(),
      handedOverAt: mail.handed_over_at?.toISOString() ?? null,
      updatedAt: mail.updated_at.toISOString(),
    })),
    clicks,
  };
}
