// The real `digest serve` process (bin/digest.js, so dist/ must be built) in a fresh folder: a published site of two
// editions and a config that mails through a loopback SMTP server. Shared by the security suites.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publishSite } from '../../src/publish/publish-site.js';
import { nodeFileSystem } from '../../src/publish/write-site.js';
import { type Served, startServe } from './serve.js';
import { weeklyEditions } from './weekly-editions.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The public base URL of the served digest (links in its mails start with it). */
export const SERVED_BASE = 'https://digest.example.org/';

export interface ServedDigestOptions {
  /** Start of the temporary folder's name. */
  prefix: string;
  /** The digest's name (and its mails' sender name). */
  name: string;
  /** The loopback SMTP server's port (something may listen there later). */
  smtpPort: number;
  /** config.server besides its base URL. */
  server: Record<string, unknown>;
  /** config.publish.email besides from and smtp. */
  email?: Record<string, unknown>;
  /** Runs in the folder after the config is written, before the server starts (adding an editor). */
  prepare?: (cwd: string) => Promise<void>;
}

export async function startServedDigest(
  options: ServedDigestOptions,
): Promise<{ cwd: string; served: Served }> {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) {
    throw new Error('dist/ is not built: run "npm run build" first');
  }
  const cwd = await mkdtemp(join(tmpdir(), options.prefix));
  await publishSite({
    fs: nodeFileSystem,
    outDir: join(cwd, 'site'),
    editions: weeklyEditions(2),
    baseUrl: SERVED_BASE,
  });
  await writeFile(
    join(cwd, 'digest.config.json'),
    JSON.stringify({
      name: options.name,
      server: { baseUrl: SERVED_BASE, ...options.server },
      publish: {
        baseUrl: SERVED_BASE,
        email: {
          from: `${options.name} <digest@example.org>`,
          smtp: { host: '127.0.0.1', port: options.smtpPort, requireTls: false },
          ...options.email,
        },
      },
      enrich: { enabled: false },
    }),
  );
  await options.prepare?.(cwd);
  return { cwd, served: await startServe({ cwd, site: 'site', dataDir: 'data' }) };
}

/** Kills the server if it still runs, closes the SMTP server and removes the folder. */
export async function stopServedDigest(parts: {
  served: Served | undefined;
  smtp: { close(): Promise<unknown> } | undefined;
  cwd: string | undefined;
}): Promise<void> {
  const child = parts.served?.child;
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await parts.smtp?.close();
  if (parts.cwd) await rm(parts.cwd, { recursive: true, force: true });
}
