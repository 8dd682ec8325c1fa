// While `digest serve` holds a PGlite data folder, other digest commands reach the same database through it: the
// server listens on a Unix socket inside the (0700) folder and names it in digest.serve.json, both private to the
// owner — the socket speaks the PostgreSQL wire protocol (pglite-socket) without authentication, so the file
// permissions are the access control. Any number of clients may connect; each unit of work (a transaction, or an
// extended-protocol sequence up to its Sync) takes the one session lock the server's own queries take too
// (pglite-session.ts), so nobody's statements land inside another's transaction.

import { randomUUID } from 'node:crypto';
import { chmod, readFile, rename, rm, writeFile } from 'node:fs/promises';
import type { Server, Socket } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { PGLiteSocketHandlerOptions } from '@electric-sql/pglite-socket';
import { systemClock } from '../core/clock.js';
import { ConfigError, errorMessage } from '../core/errors.js';
import type { Logger } from '../core/ports.js';
import { LOCK_FILE, parseHolder } from './data-dir.js';
import { type SessionLock, sessionLock } from './pglite-session.js';
import type { SharedDatabase } from './types.js';

/** Names the socket of a running `digest serve`; removed when it stops. */
export const SHARE_FILE = 'digest.serve.json';
/** pg finds a Unix socket as `<host dir>/.s.PGSQL.<port>`. */
export const SHARE_PORT = 5432;
export const SHARE_SOCKET = `.s.PGSQL.${SHARE_PORT}`;
/** Longest Unix socket path Linux and macOS accept (sun_path less its terminator). */
const MAX_SOCKET_PATH = 103;

export interface ShareRecord {
  pid: number;
  host: string;
  /** The folder holding the socket (pg's `host` for a Unix socket). */
  socketDir: string;
  port: number;
  since: string;
  /** Where that `digest serve` answers HTTP, once it listens. */
  serving?: string;
}

/** Starts sharing `pglite` (open on `dataDir`, whose lock this process holds); null when the path is too long. */
export async function sharePglite(
  pglite: PGlite,
  dataDir: string,
  log?: Logger,
): Promise<SharedDatabase | null> {
  const socketPath = join(dataDir, SHARE_SOCKET);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    log?.warn(
      `store: not sharing the database with other digest commands: the socket path ${socketPath} is longer than ` +
        `${MAX_SOCKET_PATH} bytes (use a shorter --data-dir); other commands must wait until this one stops`,
    );
    return null;
  }
  const { PGLiteSocketHandler } = await import('@electric-sql/pglite-socket');
  const { createServer } = await import('node:net');
  const queue = sessionQueue(pglite, sessionLock(pglite));
  const handlers = new Set<InstanceType<typeof PGLiteSocketHandler>>();
  const server = createServer((socket: Socket) => {
    const handler = new PGLiteSocketHandler({
      // The library's own queue lets two clients' extended-protocol messages interleave; ours does not.
      queryQueue: queue as unknown as PGLiteSocketHandlerOptions['queryQueue'],
      closeOnDetach: true,
    });
    handlers.add(handler);
    const forget = () => handlers.delete(handler);
    handler.addEventListener('close', forget);
    handler.addEventListener('error', forget);
    handler.attach(socket).catch(() => socket.destroy());
  });
  await clearShare(dataDir);
  await listen(server, socketPath);
  await chmod(socketPath, 0o600);
  const record: ShareRecord = {
    pid: process.pid,
    host: hostname(),
    socketDir: dataDir,
    port: SHARE_PORT,
    since: systemClock.now().toISOString(),
  };
  const file = join(dataDir, SHARE_FILE);
  const write = async (shared: ShareRecord) => {
    const partial = `${file}.${randomUUID()}`;
    await writeFile(partial, JSON.stringify(shared), { mode: 0o600 });
    await rename(partial, file);
  };
  await write(record);
  return {
    address: socketPath,
    announce: (serving) => write({ ...record, serving }),
    async close() {
      await rm(file, { force: true });
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([...handlers].map((handler) => handler.detach(true).catch(() => {})));
      await closed;
      await rm(socketPath, { force: true });
    },
  };
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Removes what a killed server left (its socket and share file); call holding the folder's lock. */
export async function clearShare(dataDir: string): Promise<void> {
  await rm(join(dataDir, SHARE_FILE), { force: true });
  await rm(join(dataDir, SHARE_SOCKET), { force: true });
}

/**
 * The socket of a live `digest serve` holding `dataDir`, or null: its share file must name the process that holds
 * the folder's lock, on this host, and that process must be alive.
 */
export async function findShare(dataDir: string): Promise<ShareRecord | null> {
  const [shareText, lockText] = await Promise.all([
    readFile(join(dataDir, SHARE_FILE), 'utf8').catch(() => null),
    readFile(join(dataDir, LOCK_FILE), 'utf8').catch(() => null),
  ]);
  if (shareText === null || lockText === null) return null;
  const holder = parseHolder(lockText);
  let record: ShareRecord;
  try {
    record = JSON.parse(shareText) as ShareRecord;
  } catch {
    return null;
  }
  if (!holder || holder.pid !== record.pid || holder.host !== record.host || record.host !== hostname())
    return null;
  // Our own pid: left by an earlier process that had it (pid 1 in a restarted container), never a live server.
  if (record.pid === process.pid) return null;
  if (typeof record.socketDir !== 'string' || typeof record.port !== 'number') return null;
  try {
    process.kill(record.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return null;
  }
  return record;
}

/**
 * A second `digest serve` on a folder another one holds: it would run a second weekly schedule, outbox and desk on
 * the one database. Other commands share the folder; a server does not.
 */
export function heldByServe(dataDir: string, holder: ShareRecord): ConfigError {
  const at = holder.serving ? `, serving ${holder.serving}` : '';
  const message = `is held by digest serve (pid ${holder.pid}${at}): one server per embedded database — stop that one first, or use PostgreSQL (DATABASE_URL) for several`;
  return new ConfigError(`--data-dir ${dataDir}: ${message}.`, [{ path: '--data-dir', message }]);
}

/** A pg connection string for the shared socket. PGlite has one database and no roles to check. */
export function shareUrl(record: ShareRecord): string {
  return `postgresql://postgres@/postgres?host=${encodeURIComponent(record.socketDir)}&port=${record.port}`;
}

// ReadyForQuery ('Z', length 5) with status Idle: the session is free for someone else.
const READY_IDLE = [0x5a, 0, 0, 0, 5, 0x49];

/** The query queue the socket handlers use (the shape of pglite-socket's own): one unit of work at a time. */
function sessionQueue(pglite: PGlite, lock: SessionLock) {
  /** Handlers in the middle of a unit of work, holding the session. */
  const holding = new Map<number, () => void>();
  /** Each handler's messages run one after another. */
  const chains = new Map<number, Promise<unknown>>();
  const releaseOf = (handlerId: number) => {
    holding.get(handlerId)?.();
    holding.delete(handlerId);
  };

  const run = async (handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void) => {
    if (!holding.has(handlerId)) holding.set(handlerId, await lock.acquire());
    let bytes = 0;
    let tail: number[] = [];
    try {
      await pglite.runExclusive(() =>
        pglite.execProtocolRawStream(message, {
          onRawData: (data) => {
            bytes += data.length;
            tail = [...tail, ...data.subarray(Math.max(0, data.length - READY_IDLE.length))].slice(
              -READY_IDLE.length,
            );
            onData(data);
          },
        }),
      );
    } catch (error) {
      releaseOf(handlerId);
      throw new Error(`PGlite socket: ${errorMessage(error)}`, { cause: error });
    }
    if (tail.length === READY_IDLE.length && tail.every((byte, index) => byte === READY_IDLE[index]))
      releaseOf(handlerId);
    return bytes;
  };

  return {
    enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
      const previous = chains.get(handlerId) ?? Promise.resolve();
      const next = previous.then(() => run(handlerId, message, onData));
      chains.set(
        handlerId,
        next.catch(() => {}),
      );
      return next;
    },
    getQueueLength: () => chains.size,
    clearQueueForHandler(_handlerId: number) {
      // A handler's messages already wait in its own chain; they finish or fail on the closed socket.
    },
    async clearTransactionIfNeeded(handlerId: number) {
      await chains.get(handlerId);
      chains.delete(handlerId);
      if (!holding.has(handlerId)) return;
      // A client gone mid-transaction: roll it back before anyone else gets the session.
      try {
        if (pglite.isInTransaction()) await pglite.exec('ROLLBACK');
      } finally {
        releaseOf(handlerId);
      }
    },
  };
}
