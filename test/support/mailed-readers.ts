// An edition "mailed" through the send log's own steps (enqueue, reserve, start, hand over, record), without SMTP:
// for tests that read what followed a mail (store/mail-outcomes.ts) — stats, the desk, the operator's JSON.
import type { Store } from '../../src/store/types.js';

/** Every confirmed reader's row of the edition (or of a notice) sent, but `refused` readers' mails refused for good. */
export async function mailEdition(
  store: Pick<Store, 'sendLog'>,
  edition: string,
  { refused = new Set<number>(), notice = 0 }: { refused?: ReadonlySet<number>; notice?: number } = {},
): Promise<void> {
  await store.sendLog.enqueue({ edition, notice });
  const worker = 'test-worker';
  const ids = await store.sendLog.reserveBatch({
    edition,
    notice,
    worker,
    limit: 100,
    deadClaimers: [],
    leaseSeconds: 60,
  });
  for (const subscriberId of ids) {
    const row = { edition, notice, subscriberId, worker };
    await store.sendLog.start(row);
    if (refused.has(subscriberId)) {
      await store.sendLog.recordFailed(row, {
        smtpResponse: '550 no such user',
        retryInMs: null,
        failure: 'permanent',
      });
      continue;
    }
    await store.sendLog.handOver(row);
    await store.sendLog.recordSent(row, { smtpResponse: '250 ok', messageId: `<${subscriberId}@test>` });
  }
}

/** Confirmed readers `<name>@example.com`, in the order given. */
export async function confirmedReaders(store: Pick<Store, 'subscribers'>, names: readonly string[]) {
  const readers = [];
  for (const name of names)
    readers.push(await store.subscribers.put(`${name}@example.com`, `${name}@example.com`, 'confirmed'));
  return readers;
}
