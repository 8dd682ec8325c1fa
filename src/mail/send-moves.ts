// The per-mail moves of one worker's send-log rows (start, hand over, record sent), gathered: the calls made while
// one statement runs wait and go together in the next (store/send-log-batch.ts). With many mails in flight the
// store answers a group of them for the cost of one, and a lone mail waits for nobody.
import type { SendLogPort, SendRecipient, SentMailRecord } from '../store/send-log.js';

/** Each call's answer, from one call for all of them; `runMany` answers in the order it was given. */
export function gathered<In, Out>(runMany: (inputs: In[]) => Promise<Out[]>): (input: In) => Promise<Out> {
  let waiting: { input: In; resolve: (out: Out) => void; reject: (error: unknown) => void }[] = [];
  let running = false;
  const flush = async () => {
    if (running || waiting.length === 0) return;
    const calls = waiting;
    waiting = [];
    running = true;
    try {
      const outs = await runMany(calls.map((call) => call.input));
      for (const [index, call] of calls.entries()) call.resolve(outs[index]!);
    } catch (error) {
      for (const call of calls) call.reject(error);
    } finally {
      running = false;
      void flush();
    }
  };
  return (input) =>
    new Promise<Out>((resolve, reject) => {
      waiting.push({ input, resolve, reject });
      // Calls of the same turn of the event loop join the first; later ones wait for the statement in flight.
      if (waiting.length === 1) setImmediate(() => void flush());
    });
}

export interface SendMoves {
  start(subscriberId: number): Promise<SendRecipient | null>;
  handOver(subscriberId: number): Promise<boolean>;
  recordSent(subscriberId: number, sent: SentMailRecord): Promise<void>;
}

/** One worker's moves of one mail's rows (the edition or a correction notice, `revision` recorded on start). */
export function sendMoves(
  sendLog: Pick<SendLogPort, 'startMany' | 'handOverMany' | 'recordSentMany'>,
  held: { edition: string; notice?: number | undefined; worker: string; revision?: number | undefined },
): SendMoves {
  const rows = (subscriberIds: number[]) => ({ ...held, subscriberIds });
  return {
    start: gathered(async (ids: number[]) => {
      const started = await sendLog.startMany(rows(ids), held.revision);
      return ids.map((id) => started.get(id) ?? null);
    }),
    handOver: gathered(async (ids: number[]) => {
      const handed = await sendLog.handOverMany(rows(ids));
      return ids.map((id) => handed.has(id));
    }),
    recordSent: (() => {
      const record = gathered(async (mails: { id: number; sent: SentMailRecord }[]) => {
        await sendLog.recordSentMany(
          rows(mails.map((mail) => mail.id)),
          mails.map((mail) => mail.sent),
        );
        return mails.map(() => undefined);
      });
      return (id: number, sent: SentMailRecord) => record({ id, sent });
    })(),
  };
}
