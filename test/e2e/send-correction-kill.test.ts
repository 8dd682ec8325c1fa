// The real `digest send --correction` process (bin/digest.js), SIGKILLed while the loopback SMTP server holds a
// notice and has not yet answered "250", three times, then run to the end: every reader who was mailed revision 1
// got exactly one correction notice (one mail in flight at a time, so the only uncertain rows are those the server
// did get). On PGlite and on PostgreSQL.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/types.js';
import { createPostgresDatabase, seedPgliteDataDir, storeDatabases } from '../support/database.js';
import { SECRET, seedEdition, sendConfigFile, testDigest, WEEK } from '../support/send-digest.js';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(ROOT, 'bin', 'digest.js');
const READERS = 60;

function startSend(cwd: string, env: NodeJS.ProcessEnv, args: string[]) {
  const child: ChildProcess = spawn(process.execPath, [BIN, 'send', ...args, '--data-dir', 'data'], {
    cwd,
    env: { ...process.env, DATABASE_URL: '', DIGEST_SECRET: SECRET, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
  const done = new Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>(
    (resolve) => child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

const addresses = Array.from({ length: READERS }, (_, index) => `reader${index}@example.com`);

describe.skipIf(!existsSync(join(ROOT, 'dist', 'cli', 'commands', 'send-command.js')))(
  'digest send --correction killed and rerun',
  () => {
    let cwd: string;
    let smtp: TestSmtpServer;

    beforeAll(async () => {
      smtp = await startSmtpServer({ countOnly: true });
    });
    afterAll(async () => {
      await smtp.close();
    });
    afterEach(async () => {
      smtp.behaviour.onMail = undefined;
      smtp.counts.clear();
      if (cwd) await rm(cwd, { recursive: true, force: true });
    });

    /** The edition mailed to every reader (revision 1), then corrected: revision 2 is live. */
    async function mailAndCorrect(store: Store): Promise<void> {
      await seedEdition(store);
      for (const address of addresses) await store.subscribers.put(address, address, 'confirmed');
      const digest = testDigest(store, smtp.port);
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
      smtp.counts.clear();
    }

    async function killThriceThenFinish(env: NodeJS.ProcessEnv): Promise<string> {
      const args = ['--correction', '--week', WEEK];
      let received = 0;
      for (let kill = 0; kill < 3; kill++) {
        const killAt = received + 5 + Math.floor(Math.random() * 10);
        const run = startSend(cwd, env, args);
        smtp.behaviour.onMail = () => {
          received = [...smtp.counts.values()].reduce((sum, count) => sum + count, 0);
          if (received >= killAt) run.child.kill('SIGKILL');
        };
        const result = await run.done;
        expect(result.signal, result.stderr).toBe('SIGKILL');
      }
      smtp.behaviour.onMail = undefined;
      const final = await startSend(cwd, env, args).done;
      expect([0, 3], final.stderr).toContain(final.code);
      // A rerun after the end mails no one.
      const again = await startSend(cwd, env, args).done;
      expect(again.stdout).toMatch(/sent\s+\d+\s+0 in this run/);
      return final.stdout;
    }

    for (const { kind, skip } of storeDatabases()) {
      it.skipIf(skip)(
        `on ${kind}: exactly one notice per reader of revision 1 after three kills`,
        async () => {
          cwd = await mkdtemp(join(tmpdir(), 'digest-correction-kill-'));
          await writeFile(
            join(cwd, 'digest.config.json'),
            JSON.stringify(sendConfigFile(smtp.port, { concurrency: 1, messagesPerSecond: 400 })),
          );
          let env: NodeJS.ProcessEnv = {};
          let open: () => Promise<Store>;
          let drop = async () => {};
          if (kind === 'pglite') {
            await seedPgliteDataDir(join(cwd, 'data'));
            open = () => openStore({ dataDir: join(cwd, 'data') });
          } else {
            const database = await createPostgresDatabase();
            env = { DATABASE_URL: database.url };
            open = () => openStore({ databaseUrl: database.url });
            drop = database.drop;
          }
          try {
            const store = await open();
            await mailAndCorrect(store).finally(() => store.close());
            const stdout = await killThriceThenFinish(env);
            expect(stdout).toContain('Correction notice (revision 2) 2026-05-04:');
            expect([...smtp.counts.keys()].sort()).toEqual([...addresses].sort());
            expect([...smtp.counts.values()].every((count) => count === 1)).toBe(true);
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
  },
);
