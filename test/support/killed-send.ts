// The real `digest send` process (bin/digest.js, so dist/ must be built), SIGKILLed while a loopback SMTP server
// holds a mail and has not yet answered "250", then run to the end: the harness the send-kill tests share.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/types.js';
import { createPostgresDatabase, type DatabaseKind, seedPgliteDataDir } from './database.js';
import { SECRET } from './send-digest.js';
import { startSmtpServer, type TestSmtpServer } from './smtp-server.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(ROOT, 'bin', 'digest.js');
/** The send tests run the built CLI: without dist/ they are skipped (npm test builds it first). */
export const NO_BUILT_SEND = !existsSync(join(ROOT, 'dist', 'cli', 'main.js'));

export interface SendRun {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/** `digest send <args> --data-dir data` in `cwd`, no developer's DATABASE_URL unless `env` gives one. */
export function startSend(cwd: string, env: NodeJS.ProcessEnv, args: string[]): SendRun {
  const child = spawn(process.execPath, [BIN, 'send', ...args, '--data-dir', 'data'], {
    cwd,
    env: { ...process.env, DATABASE_URL: '', DIGEST_SECRET: SECRET, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
  const done: SendRun['done'] = new Promise((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

export interface KilledSends {
  cwd: string;
  env: NodeJS.ProcessEnv;
  args: string[];
  smtp: TestSmtpServer;
  /** Each run is killed after `after` + a random number below `spread` further mails. */
  after: number;
  spread: number;
}

/** Three runs killed mid-mail, then one run to the end (exit 0, or 3 for uncertain rows); its stdout. */
export async function killThriceThenFinish(options: KilledSends): Promise<string> {
  const { cwd, env, args, smtp } = options;
  let received = 0;
  for (let kill = 0; kill < 3; kill++) {
    const killAt = received + options.after + Math.floor(Math.random() * options.spread);
    const run = startSend(cwd, env, args);
    smtp.behaviour.onMail = () => {
      received = [...smtp.counts.values()].reduce((sum, count) => sum + count, 0);
      // Killed while the server holds this mail and has not yet answered "250": the worst moment.
      if (received >= killAt) run.child.kill('SIGKILL');
    };
    const result = await run.done;
    expect(result.signal, result.stderr).toBe('SIGKILL');
  }
  smtp.behaviour.onMail = undefined;
  const final = await startSend(cwd, env, args).done;
  expect([0, 3], `signal ${final.signal}: ${final.stderr}`).toContain(final.code);
  return final.stdout;
}

/** The store the processes in `cwd` share: PGlite in `cwd/data`, or a fresh PostgreSQL database (dropped by `drop`). */
export async function sendStore(
  kind: DatabaseKind,
  cwd: string,
): Promise<{ env: NodeJS.ProcessEnv; open: () => Promise<Store>; drop: () => Promise<void> }> {
  if (kind === 'pglite') {
    await seedPgliteDataDir(join(cwd, 'data'));
    return { env: {}, open: () => openStore({ dataDir: join(cwd, 'data') }), drop: async () => {} };
  }
  const database = await createPostgresDatabase();
  return {
    env: { DATABASE_URL: database.url },
    open: () => openStore({ databaseUrl: database.url }),
    drop: database.drop,
  };
}

/**
 * The hooks of a describe block of killed sends: one counting SMTP server for the block (counts and behaviour reset
 * after each test), and a fresh folder per test (`folder()`), removed after it.
 */
export function useKilledSends(prefix: string): { readonly smtp: TestSmtpServer; folder(): Promise<string> } {
  let smtp: TestSmtpServer | undefined;
  let cwd: string | undefined;
  beforeAll(async () => {
    smtp = await startSmtpServer({ countOnly: true });
  });
  afterAll(async () => {
    await smtp?.close();
  });
  afterEach(async () => {
    smtp?.counts.clear();
    if (smtp) smtp.behaviour.onMail = undefined;
    if (cwd) await rm(cwd, { recursive: true, force: true });
    cwd = undefined;
  });
  return {
    get smtp() {
      if (!smtp) throw new Error('the SMTP server starts in beforeAll');
      return smtp;
    },
    async folder() {
      cwd = await mkdtemp(join(tmpdir(), prefix));
      return cwd;
    },
  };
}
