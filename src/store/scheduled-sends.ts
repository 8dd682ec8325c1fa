// Sends set for a later time. The claim is one UPDATE … WHERE state = 'scheduled' RETURNING: on one database, of
// every instance (or every tick of one) that tries, exactly one gets the row back and performs the send. A cancel
// is the same UPDATE from the other side, so a send is either cancelled or started, never both. The send itself
// goes through the send log, which keeps each reader to one mail whatever else is sending.
import { type Kysely, type Selectable, sql } from 'kysely';
import { instanceName } from './scheduled-runs.js';
import type { Database, ScheduledSendState, ScheduledSendsTable } from './schema.js';

export interface ScheduledSend {
  id: number;
  edition: string;
  sendAt: Date;
  /** The zone the editor chose the time in, to show it back in. */
  timeZone: string;
  createdBy: string;
  createdAt: Date;
  state: ScheduledSendState;
  startedAt: Date | null;
  finishedAt: Date | null;
  outcome: Record<string, unknown> | null;
}

export interface ScheduledSendsPort {
  /** Sets the week's send for `sendAt`, replacing one still waiting. */
  schedule(input: {
    edition: string;
    sendAt: Date;
    timeZone: string;
    createdBy: string;
  }): Promise<ScheduledSend>;
  /** The week's send still waiting, or null. */
  waiting(edition: string): Promise<ScheduledSend | null>;
  /** The waiting send due first, of any week, or null. */
  nextWaiting(): Promise<ScheduledSend | null>;
  /** The week's latest scheduled send in any state, or null. */
  latest(edition: string): Promise<ScheduledSend | null>;
  /** Cancels the week's waiting send; null when none was waiting (it started already, or there was none). */
  cancel(edition: string): Promise<ScheduledSend | null>;
  /** Waiting sends whose time has come, oldest first. */
  due(now: Date): Promise<ScheduledSend[]>;
  /** Takes a waiting send for this process: true for exactly one caller. */
  claim(id: number): Promise<boolean>;
  /** Records the end of a claimed send, with what it did (counts, or the error). */
  finish(id: number, outcome: Record<string, unknown>): Promise<void>;
}

export function scheduledSendsStore(db: Kysely<Database>, instance = instanceName()): ScheduledSendsPort {
  const rows = () => db.selectFrom('scheduled_sends').selectAll();
  const cancelWaiting = (edition: string) =>
    db
      .updateTable('scheduled_sends')
      .set({ state: 'cancelled', finished_at: sql<Date>`now()` })
      .where('edition', '=', edition)
      .where('state', '=', 'scheduled')
      .returningAll()
      .executeTakeFirst();
  return {
    schedule: (input) => scheduleReplacing(db, input),
    async waiting(edition) {
      const row = await rows()
        .where('edition', '=', edition)
        .where('state', '=', 'scheduled')
        .executeTakeFirst();
      return row ? fromRow(row) : null;
    },
    async nextWaiting() {
      const row = await rows()
        .where('state', '=', 'scheduled')
        .orderBy('send_at')
        .limit(1)
        .executeTakeFirst();
      return row ? fromRow(row) : null;
    },
    async latest(edition) {
      const row = await rows()
        .where('edition', '=', edition)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row ? fromRow(row) : null;
    },
    async cancel(edition) {
      const row = await cancelWaiting(edition);
      return row ? fromRow(row) : null;
    },
    async due(now) {
      const found = await rows()
        .where('state', '=', 'scheduled')
        .where('send_at', '<=', now)
        .orderBy('send_at')
        .execute();
      return found.map(fromRow);
    },
    async claim(id) {
      const row = await db
        .updateTable('scheduled_sends')
        .set({ state: 'started', instance, started_at: sql<Date>`now()` })
        .where('id', '=', String(id))
        .where('state', '=', 'scheduled')
        .returning('id')
        .executeTakeFirst();
      return row !== undefined;
    },
    async finish(id, outcome) {
      await db
        .updateTable('scheduled_sends')
        .set({ state: 'done', finished_at: sql<Date>`now()`, outcome: JSON.stringify(outcome) })
        .where('id', '=', String(id))
        .execute();
    },
  };
}

/** A new waiting send for the week, the one waiting before cancelled in the same transaction. */
function scheduleReplacing(
  db: Kysely<Database>,
  { edition, sendAt, timeZone, createdBy }: Parameters<ScheduledSendsPort['schedule']>[0],
): Promise<ScheduledSend> {
  return db.transaction().execute(async (trx) => {
    await trx
      .updateTable('scheduled_sends')
      .set({ state: 'cancelled', finished_at: sql<Date>`now()` })
      .where('edition', '=', edition)
      .where('state', '=', 'scheduled')
      .execute();
    const row = await trx
      .insertInto('scheduled_sends')
      .values({
        edition,
        send_at: sendAt,
        time_zone: timeZone,
        created_by: createdBy,
        instance: null,
        started_at: null,
        finished_at: null,
        outcome: JSON.stringify(null),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return fromRow(row);
  });
}

function fromRow(row: Selectable<ScheduledSendsTable>): ScheduledSend {
  return {
    id: Number(row.id),
    edition: row.edition,
    sendAt: new Date(row.send_at),
    timeZone: row.time_zone,
    createdBy: row.created_by,
    createdAt: new Date(row.created_at),
    state: row.state,
    startedAt: row.started_at ? new Date(row.started_at) : null,
    finishedAt: row.finished_at ? new Date(row.finished_at) : null,
    outcome: row.outcome,
  };
}
