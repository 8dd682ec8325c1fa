// The real `digest send --correction` process (bin/digest.js), SIGKILLed while the loopback SMTP server holds a
// notice and has not yet answered "250", three times, then run to the end: every reader who was mailed revision 1
// got exactly one correction notice (one mail in flight at a time, so the only uncertain rows are those the server
// did get). On PGlite and on PostgreSQL.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/types.js';
import { storeDatabases } from '../support/database.js';
import {
  killThriceThenFinish,
  NO_BUILT_SEND,
  sendStore,
  startSend,
  useKilledSends,
} from '../support/killed-send.js';
import { seedEdition, sendConfigFile, testDigest, WEEK } from '../support/send-digest.js';

const READERS = 60;
const CORRECTION = ['--correction', '--week', WEEK];

const addresses = Array.from({ length: READERS }, (_, index) => `reader${index}@example.com`);

describe.skipIf(NO_BUILT_SEND)('digest send --correction killed and rerun', () => {
  const sends = useKilledSends('digest-correction-kill-');
  let cwd: string;

  /** The edition mailed to every reader (revision 1), then corrected: revision 2 is live. */
  async function mailAndCorrect(store: Store): Promise<void> {
    await seedEdition(store);
    for (const address of addresses) await store.subscribers.put(address, address, 'confirmed');
    const digest = testDigest(store, sends.smtp.port);
    expect((await digest.send({ week: WEEK })).run.sent).toBe(READERS);
    const draft = await digest.correctionDraft(WEEK);
    draft.items[0]!.summary = 'The corrected summary of the first item.';
    await digest.correct({
      week: WEEK,
      reason: 'The first item misreported its benchmark',
      editor: 'editor@example.org',
      corrected: draft,
      outDir: join(cwd, 'out'),
    });
    sends.smtp.counts.clear();
  }

  async function killThriceThenRerun(env: NodeJS.ProcessEnv): Promise<string> {
    const stdout = await killThriceThenFinish({
      cwd,
      env,
      args: CORRECTION,
      smtp: sends.smtp,
      after: 5,
      spread: 10,
    });
    // A rerun after the end mails no one.
    const again = await startSend(cwd, env, CORRECTION).done;
    expect(again.stdout).toMatch(/sent\s+\d+\s+0 in this run/);
    return stdout;
  }

  for (const { kind, skip } of storeDatabases()) {
    it.skipIf(skip)(
      `on ${kind}: exactly one notice per reader of revision 1 after three kills`,
      async () => {
        cwd = await sends.folder();
        await writeFile(
          join(cwd, 'digest.config.json'),
          JSON.stringify(sendConfigFile(sends.smtp.port, { concurrency: 1, messagesPerSecond: 400 })),
        );
        const { env, open, drop } = await sendStore(kind, cwd);
        try {
          const store = await open();
          await mailAndCorrect(store).finally(() => store.close());
          const stdout = await killThriceThenRerun(env);
          expect(stdout).toContain('Correction notice (revision 2) 2026-05-04:');
          expect([...sends.smtp.counts.keys()].sort()).toEqual([...addresses].sort());
          expect([...sends.smtp.counts.values()].every((count) => count === 1)).toBe(true);
          const after = await open();
          try {
            const notices = await after.sendLog.list(
              { edition: WEEK, notice: 2 },
              { states: ['sent', 'uncertain'], limit: 1000 },
            );
            expect(notices).toHaveLength(READERS);
            expect(await after.sendLog.counts(WEEK)).toMatchObject({ sent: READERS, queued: 0 });
          } finally {
            await after.close();
          }
        } finally {
          await drop();
        }
      },
      180_000,
    );
  }
});
