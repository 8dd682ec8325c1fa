// `digest send` against an SMTP server nobody can connect to: a refused loopback port, and a server that accepts
// the connection and never greets. The send stops within a minute, exits 3 naming the server and `digest doctor`,
// says when each next try is, and marks no reader: a rerun once the server is back mails each reader once.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { runDigest } from '../support/cli.js';
import { seedPgliteDataDir } from '../support/database.js';
import { SECRET, seedEdition, sendConfigFile, WEEK } from '../support/send-digest.js';
import { startSmtp } from '../support/smtp-inbox.js';

/** A loopback port with nothing listening: every connection is refused. */
async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A server that accepts every connection and never says a word (no SMTP greeting). */
async function silentServer(): Promise<{ port: number; connections: () => number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('a send that cannot connect stops early', () => {
  let cwd: string;
  const readers = ['ada@example.org', 'grace@example.org', 'linus@example.org'];
  const env = { DIGEST_SECRET: SECRET, DIGEST_CONFIG_JSON: '' };
  const config = (port: number, send: Record<string, number> = {}) =>
    writeFile(join(cwd, 'digest.config.json'), JSON.stringify(sendConfigFile(port, send)));
  const sendLog = async () => {
    const store = await openStore({ dataDir: join(cwd, 'data') });
    try {
      return await store.sendLog.counts(WEEK);
    } finally {
      await store.close();
    }
  };

  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), 'digest-send-unreachable-'));
    await seedPgliteDataDir(join(cwd, 'data'));
    const store = await openStore({ dataDir: join(cwd, 'data') });
    try {
      await seedEdition(store);
      for (const address of readers) await store.subscribers.put(address, address, 'confirmed');
    } finally {
      await store.close();
    }
  });
  afterAll(async () => rm(cwd, { recursive: true, force: true }));

  it('a refused port with the default delays and timeouts: exit 3 within 60 s, nothing marked', async () => {
    const port = await refusedPort();
    // The send's own defaults (retry after 60 s, 60 s timeout): the connection check has its own bounded budget.
    await config(port, { retryDelayMs: 60_000, timeoutMs: 60_000, leaseSeconds: 600 });
    const started = performance.now();
    const run = await runDigest(['send', '--week', WEEK], { cwd, env });
    const seconds = (performance.now() - started) / 1000;
    expect(run.code, run.stderr).toBe(3);
    expect(seconds).toBeLessThan(60);
    expect(run.stderr).toContain(`Could not connect to the SMTP server 127.0.0.1:${port}`);
    expect(run.stderr).toContain('./digest doctor');
    expect(run.stderr).toMatch(/next try at \d\d:\d\d:\d\d UTC \(in 5 s\)/);
    const counts = await sendLog();
    expect(counts).toMatchObject({ sent: 0, failed: 0, sending: 0, uncertain: 0, queued: readers.length });
  }, 90_000);

  it('a server that accepts and never greets: exit 3 after a few bounded tries, nothing marked', async () => {
    const silent = await silentServer();
    try {
      await config(silent.port, { timeoutMs: 500 });
      const run = await runDigest(['send', '--week', WEEK], { cwd, env });
      expect(run.code, run.stderr).toBe(3);
      expect(run.stderr).toContain(`Could not connect to the SMTP server 127.0.0.1:${silent.port}`);
      expect(silent.connections()).toBe(4);
    } finally {
      await silent.close();
    }
    expect(await sendLog()).toMatchObject({ sent: 0, failed: 0, queued: readers.length });
  }, 60_000);

  it('send --test mails one "[Test]" copy to the address given and marks no reader; a bad address is exit 2', async () => {
    const smtp = await startSmtp();
    try {
      await config(smtp.port);
      const bad = await runDigest(['send', '--test', 'not-an-address', '--week', WEEK], { cwd, env });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--test "not-an-address"');
      const run = await runDigest(['send', '--test', 'editor@example.org'], { cwd, env });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`^Test of ${WEEK} sent to editor@example\\.org: 250`));
      expect(smtp.received.map((mail) => mail.to)).toEqual([['editor@example.org']]);
      expect(smtp.received[0]!.parsed.subject).toMatch(/^\[Test\] /);
    } finally {
      await smtp.close();
    }
    expect(await sendLog()).toMatchObject({ sent: 0, failed: 0, queued: readers.length });
  }, 60_000);

  it('once the server is back, a rerun mails every reader once', async () => {
    const smtp = await startSmtp();
    try {
      await config(smtp.port);
      const run = await runDigest(['send', '--week', WEEK], { cwd, env });
      expect(run.code, run.stderr).toBe(0);
      expect(smtp.received.flatMap((mail) => mail.to).sort()).toEqual([...readers].sort());
      expect(await sendLog()).toMatchObject({ sent: readers.length, failed: 0, queued: 0 });
    } finally {
      await smtp.close();
    }
  }, 60_000);
});
