// A throwaway PostgreSQL cluster for the store suites: TEST_DATABASE_URL when set, else one started here from the
// installed binaries (temp dir, loopback port, durability off), else none and the PostgreSQL suites skip.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { announceSkip, quickTier } from './environment.js';
import { freePort } from './loopback.js';

const run = promisify(execFile);

declare module 'vitest' {
  export interface ProvidedContext {
    /** A server the store suites may create databases on, or null when PostgreSQL suites skip. */
    testDatabaseUrl: string | null;
  }
}

/** Test files that run suites on PostgreSQL name this helper (test/support/database.ts). */
export const POSTGRES_MARKER = 'storeDatabases';

export async function setupPostgres(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env.TEST_DATABASE_URL;
  project.provide('testDatabaseUrl', given || null);
  if (given || quickTier() || !(await runIncludesPostgresSuites(project))) return async () => {};
  const binDir = postgresBinDir();
  if (!binDir) {
    announceSkip(
      'store on PostgreSQL',
      'no TEST_DATABASE_URL and no PostgreSQL binaries in /usr/lib/postgresql',
    );
    return async () => {};
  }
  try {
    const cluster = await startPostgresCluster(binDir);
    project.provide('testDatabaseUrl', cluster.url);
    return () => cluster.stop();
  } catch (error) {
    announceSkip('store on PostgreSQL', String(error));
    return async () => {};
  }
}

/** Starting a cluster costs a second of CPU: only when the files of this run use it. */
async function runIncludesPostgresSuites(project: TestProject): Promise<boolean> {
  // vitest keeps the command-line file filters here (internal); without them every file counts.
  const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern;
  const { testFiles } = await project.globTestFiles(filters);
  for (const file of testFiles) {
    if ((await readFile(file, 'utf8')).includes(POSTGRES_MARKER)) return true;
  }
  return false;
}

const PREFIX = 'digest-test-pg-';

export interface PostgresCluster {
  url: string;
  stop(): Promise<void>;
}

/** The newest installed server's bin folder (Debian layout), or null. */
export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((version) => existsSync(join(root, version, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : null;
}

export async function startPostgresCluster(binDir: string): Promise<PostgresCluster> {
  await removeStaleClusters(binDir);
  const dir = await mkdtemp(join(tmpdir(), PREFIX));
  const data = join(dir, 'data');
  // initdb refuses to run as root: then the cluster belongs to the postgres user.
  const asRoot = process.getuid?.() === 0;
  const runAs = async (command: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', join(binDir, command), ...args])
      : run(join(binDir, command), args);
  try {
    await writeFile(join(dir, 'owner.pid'), String(process.pid));
    if (asRoot) await chownToPostgres(dir);
    await runAs('initdb', [
      '-D',
      data,
      '-U',
      'postgres',
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
    ]);
    const port = await freePort();
    const settings = [
      `-p ${port}`,
      `-k ${dir}`,
      '-c listen_addresses=127.0.0.1',
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c shared_buffers=32MB',
      '-c max_connections=60',
    ].join(' ');
    await runAs('pg_ctl', [
      '-D',
      data,
      '-l',
      join(dir, 'server.log'),
      '-o',
      settings,
      '-w',
      '-t',
      '60',
      'start',
    ]);
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      stop: async () => {
        await runAs('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {});
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    const log = existsSync(join(dir, 'server.log'))
      ? readFileSync(join(dir, 'server.log'), 'utf8').slice(-2000)
      : '';
    await runAs('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']).catch(() => {});
    await rm(dir, { recursive: true, force: true });
    throw new Error(`could not start a test PostgreSQL cluster: ${String(error)}\n${log}`, { cause: error });
  }
}

async function chownToPostgres(dir: string): Promise<void> {
  const [{ stdout: uid }, { stdout: gid }] = await Promise.all([
    run('id', ['-u', 'postgres']),
    run('id', ['-g', 'postgres']),
  ]);
  await chown(dir, Number(uid.trim()), Number(gid.trim()));
}

/** Clusters left by a test run that was killed before its teardown: their owner process is gone. */
async function removeStaleClusters(binDir: string): Promise<void> {
  for (const name of readdirSync(tmpdir()).filter((entry) => entry.startsWith(PREFIX))) {
    const dir = join(tmpdir(), name);
    const owner = Number(readFileSafe(join(dir, 'owner.pid')));
    if (!owner || isAlive(owner)) continue;
    const postmaster = Number(readFileSafe(join(dir, 'data', 'postmaster.pid')).split('\n')[0]);
    if (postmaster && isAlive(postmaster)) {
      const asRoot = process.getuid?.() === 0;
      const args = ['-D', join(dir, 'data'), '-m', 'immediate', '-w', 'stop'];
      await (asRoot
        ? run('runuser', ['-u', 'postgres', '--', join(binDir, 'pg_ctl'), ...args])
        : run(join(binDir, 'pg_ctl'), args)
      ).catch(() => {});
    }
    await rm(dir, { recursive: true, force: true });
  }
}

function readFileSafe(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
