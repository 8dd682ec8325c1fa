// The real `digest send` process (bin/digest.js), SIGKILLed at random points while a loopback SMTP server counts the
// mails, then run again: every confirmed reader gets exactly one mail, except uncertain rows (killed between the
// hand-over before the terminating dot and the log write of the server's "250"), which are reported and get at most
// one; rows killed before their hand-over are sent again. On PGlite and on PostgreSQL, and with
// two processes sharing one send on PostgreSQL.
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
import { SECRET, seedEdition, sendConfigFile, WEEK } from '../support/send-digest.js';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(ROOT, 'bin', 'digest.js');
const READERS = 240;

interface Run {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

function startSend(cwd: string, env: NodeJS.ProcessEnv): Run {
  const child = spawn(process.execPath, [BIN, 'send', '--week', WEEK, '--data-dir', 'data'], {
    cwd,
    env: { ...process.env, DATABASE_URL: '', DIGEST_SECRET: SECRET, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
  const done = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stdout: string;
    stderr: string;
  }>((resolve) => child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done };
}

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

describe.skipIf(!existsSync(join(ROOT, 'dist', 'cli', 'commands', 'send-command.js')))(
  'digest send killed and rerun',
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
      smtp.counts.clear();
      smtp.behaviour.onMail = undefined;
      if (cwd) await rm(cwd, { recursive: true, force: true });
    });

    async function prepare(send: object = {}) {
      cwd = await mkdtemp(join(tmpdir(), 'digest-send-kill-'));
      await writeFile(
        join(cwd, 'digest.config.json'),
        JSON.stringify(sendConfigFile(smtp.port, { concurrency: 4, messagesPerSecond: 400, ...send })),
      );
    }

    /** Three runs killed after a random number of further mails, then one run to the end. */
    async function killThriceThenFinish(env: NodeJS.ProcessEnv): Promise<string> {
      let received = 0;
      for (let kill = 0; kill < 3; kill++) {
        const killAt = received + 10 + Math.floor(Math.random() * 50);
        const run = startSend(cwd, env);
        smtp.behaviour.onMail = () => {
          received = [...smtp.counts.values()].reduce((sum, count) => sum + count, 0);
          // Killed while the server holds this mail and has not yet answered "250": the worst moment.
          if (received >= killAt) run.child.kill('SIGKILL');
        };
        const result = await run.done;
        expect(result.signal, result.stderr).toBe('SIGKILL');
      }
      smtp.behaviour.onMail = undefined;
      const final = await startSend(cwd, env).done;
      expect([0, 3], final.stderr).toContain(final.code);
      return final.stdout;
    }

    for (const { kind, skip } of storeDatabases()) {
      it.skipIf(skip)(
        `on ${kind}: exactly one mail per confirmed reader after three kills (uncertain rows reported)`,
        async () => {
          await prepare();
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
            await seed(store).finally(() => store.close());
            const stdout = await killThriceThenFinish(env);
            const after = await open();
            try {
              const result = await verdict(after, smtp);
              const uncertain = result.byState.get('uncertain') ?? [];
              expect(result.rows).toBe(READERS);
              expect(result.duplicates).toEqual([]);
              expect(result.sentWithoutOne).toEqual([]);
              expect(
                [...result.byState.keys()].filter((state) => state !== 'sent' && state !== 'uncertain'),
              ).toEqual([]);
              // Uncertain rows are the kill moments: at most the mails in flight at each of three kills.
              expect(uncertain.length).toBeLessThanOrEqual(3 * 4);
              for (const address of uncertain) expect(smtp.counts.get(address) ?? 0).toBeLessThanOrEqual(1);
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
          const [first, second] = await Promise.all([startSend(cwd, env).done, startSend(cwd, env).done]);
          expect(first.code, first.stderr).toBe(0);
          expect(second.code, second.stderr).toBe(0);
          const shares = [first, second].map((run) =>
            Number(/(\d+) in this run/.exec(run.stdout)?.[1] ?? -1),
          );
          expect(shares[0]! + shares[1]!).toBe(READERS);
          expect(Math.min(...shares)).toBeGreaterThan(0);
          expect(smtp.counts.size).toBe(READERS);
          expect([...smtp.counts.values()].every((count) => count === 1)).toBe(true);
        } finally {
          await database.drop();
        }
      },
      120_000,
    );
  },
);
