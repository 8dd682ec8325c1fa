// Store contract: "run once per slot". One process: a slot runs once, a run that throws gives the slot back. Three
// stores on one PostgreSQL (three `digest serve` instances whose timers fire together): exactly one runs the slot,
// the others are told who has it, and a later slot is free again.
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { createPostgresDatabase, storeDatabases, useTestStore } from '../support/database.js';

describe('scheduled runs (PGlite)', () => {
  const store = useTestStore('pglite');

  it('runs a slot once, names who claimed it, and frees a slot whose run threw', async () => {
    const runs = store().scheduledRuns;
    expect(await runs.runOnce('backup', '2026-05-04', async () => 'first')).toEqual({
      ran: true,
      value: 'first',
    });
    const again = await runs.runOnce('backup', '2026-05-04', async () => 'second');
    expect(again).toEqual({ ran: false, claimedBy: expect.stringMatching(/:\d+$/) });
    // Another job, or the next slot, is its own.
    expect((await runs.runOnce('send', '2026-05-04', async () => 1)).ran).toBe(true);
    expect((await runs.runOnce('backup', '2026-05-11', async () => 1)).ran).toBe(true);

    await expect(
      runs.runOnce('send', '2026-05-11', async () => {
        throw new Error('SMTP down');
      }),
    ).rejects.toThrow('SMTP down');
    expect(await runs.runOnce('send', '2026-05-11', async () => 'retried')).toEqual({
      ran: true,
      value: 'retried',
    });
  });
});

const postgres = storeDatabases().find((database) => database.kind === 'postgresql')!;

describe.skipIf(postgres.skip !== null)('scheduled runs on one PostgreSQL shared by three instances', () => {
  it('run each slot once, whichever instance gets there first', async () => {
    const database = await createPostgresDatabase();
    const stores = [] as Awaited<ReturnType<typeof openStore>>[];
    try {
      for (let n = 0; n < 3; n++) stores.push(await openStore({ databaseUrl: database.url }));
      let runs = 0;
      const job = async () => {
        runs++;
        return runs;
      };
      for (const slot of ['2026-05-04T07:00', '2026-05-11T07:00']) {
        // Each instance's timer fires, several times (a restart, a catch-up): one run per slot in all.
        const outcomes = await Promise.all(
          [0, 1, 2, 0, 1, 2].map((n) => stores[n]!.scheduledRuns.runOnce('weekly-send', slot, job)),
        );
        expect(outcomes.filter((outcome) => outcome.ran)).toHaveLength(1);
        const skipped = outcomes.filter((outcome) => !outcome.ran);
        expect(new Set(skipped.map((outcome) => (outcome.ran ? '' : outcome.claimedBy))).size).toBe(1);
      }
      expect(runs).toBe(2);
    } finally {
      for (const store of stores) await store.close();
      await database.drop();
    }
  });
});
