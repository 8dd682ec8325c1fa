// The real `digest send` process (bin/digest.js), SIGKILLed at random points while a loopback SMTP server counts the
// mails, then run again: every confirmed reader gets exactly one mail, except uncertain rows (killed between the
// hand-over before the terminating dot and the log write of the server's "250"), which are reported and get at most
// one; rows killed before their hand-over are sent again. On PGlite and on PostgreSQL, and with
// two processes sharing one send on PostgreSQL.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/types.js';
import { createPostgresDatabase, storeDatabases } from '../support/database.js';
import {
  killThriceThenFinish,
  NO_BUILT_SEND,
  sendStore,
  startSend,
  useKilledSends,
} from '../support/killed-send.js';
import { seedEdition, sendConfigFile, WEEK } from '../support/send-digest.js';
import type { TestSmtpServer } from '../support/smtp-server.js';

const READERS = 240;
const SEND = ['--week', WEEK];

function addresses(count: number): string[] {
  return Array.from({ length: count }, (_, index) => `reader${String(index).padStart(5, '0')}@example.com`);
}

async function seed(store: Store): Promise<void> {
  await seedEdition(store);
  for (const address of addresses(READERS)) await store.subscribers.put(address, address, 'confirmed');
}

/** What the log says about each reader, and how many mails each got. */
async function verdict(store: Store, smtp: TestSmtpServer) {
  const rows = await store.sendLog.list(WEEK, {
    states: ['queued', 'sending', 'sent', 'failed', 'uncertain', 'skipped'],
    limit: 10_000,
  });
  const byState = new Map<string, string[]>();
  for (const row of rows) byState.set(row.state, [...(byState.get(row.state) ?? []), row.address]);
  const duplicates = [...smtp.counts].filter(([, count]) => count > 1).map(([address]) => address);
  const sentWithoutOne = (byState.get('sent') ?? []).filter((address) => smtp.counts.get(address) !== 1);
  return { rows: rows.length, byState, duplicates, sentWithoutOne };
}

describe.skipIf(NO_BUILT_SEND)('digest send killed and rerun', () => {
  const sends = useKilledSends('digest-send-kill-');
  let cwd: string;

  async function prepare(send: object = {}) {
    cwd = await sends.folder();
    await writeFile(
      join(cwd, 'digest.config.json'),
      JSON.stringify(sendConfigFile(sends.smtp.port, { concurrency: 4, messagesPerSecond: 400, ...send })),
    );
  }

  for (const { kind, skip } of storeDatabases()) {
    it.skipIf(skip)(
      `on ${kind}: exactly one mail per confirmed reader after three kills (uncertain rows reported)`,
      async () => {
        await prepare();
        const { env, open, drop } = await sendStore(kind, cwd);
        try {
          const store = await open();
          await seed(store).finally(() => store.close());
          const stdout = await killThriceThenFinish({
            cwd,
            env,
            args: SEND,
            smtp: sends.smtp,
            after: 10,
            spread: 50,
          });
          const after = await open();
          try {
            const result = await verdict(after, sends.smtp);
            const uncertain = result.byState.get('uncertain') ?? [];
            expect(result.rows).toBe(READERS);
            expect(result.duplicates).toEqual([]);
            expect(result.sentWithoutOne).toEqual([]);
            expect(
              [...result.byState.keys()].filter((state) => state !== 'sent' && state !== 'uncertain'),
            ).toEqual([]);
            // Uncertain rows are the kill moments: at most the mails in flight at each of three kills.
            expect(uncertain.length).toBeLessThanOrEqual(3 * 4);
            for (const address of uncertain)
              expect(sends.smtp.counts.get(address) ?? 0).toBeLessThanOrEqual(1);
            if (uncertain.length) expect(stdout).toMatch(new RegExp(`uncertain\\s+${uncertain.length}\\b`));
          } finally {
            await after.close();
          }
        } finally {
          await drop();
        }
      },
      120_000,
    );
  }

  const postgres = storeDatabases().find((database) => database.kind === 'postgresql')!;
  it.skipIf(postgres.skip)(
    'two processes share one send on PostgreSQL with no duplicates',
    async () => {
      await prepare({ messagesPerSecond: 150 });
      const database = await createPostgresDatabase();
      try {
        const store = await openStore({ databaseUrl: database.url });
        await seed(store).finally(() => store.close());
        const env = { DATABASE_URL: database.url };
        const [first, second] = await Promise.all([
          startSend(cwd, env, SEND).done,
          startSend(cwd, env, SEND).done,
        ]);
        expect(first.code, first.stderr).toBe(0);
        expect(second.code, second.stderr).toBe(0);
        const shares = [first, second].map((run) => Number(/(\d+) in this run/.exec(run.stdout)?.[1] ?? -1));
        expect(shares[0]! + shares[1]!).toBe(READERS);
        expect(Math.min(...shares)).toBeGreaterThan(0);
        expect(sends.smtp.counts.size).toBe(READERS);
        expect([...sends.smtp.counts.values()].every((count) => count === 1)).toBe(true);
      } finally {
        await database.drop();
      }
    },
    120_000,
  );
});
