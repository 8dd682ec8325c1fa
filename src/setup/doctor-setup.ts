// `digest doctor`'s checks of the set-up itself: the config, the data folder, each source, the base URL and the
// secret. Sources are fetched once each, at the same time, with a short deadline.
import { stat } from 'node:fs/promises';
import type { Config } from '../config/config-schema.js';
import { checkWritableFolder, resolveDataDir } from '../config/inputs.js';
import { readSecret } from '../config/secret.js';
import { latestMonday } from '../core/dates.js';
import { errorMessage } from '../core/errors.js';
import { createHttpClient } from '../net/http-client.js';
import { check, type DoctorCheck } from './doctor-types.js';

export async function checkDataFolder(input: {
  cwd: string;
  env: NodeJS.ProcessEnv;
  dataDir?: string;
}): Promise<DoctorCheck> {
  if (input.env.DATABASE_URL) {
    return check({
      area: 'data',
      name: 'database',
      status: 'ok',
      detail: 'PostgreSQL from DATABASE_URL (no data folder used)',
    });
  }
  const folder = resolveDataDir(input);
  try {
    await checkWritableFolder(folder, '--data-dir', input.cwd);
  } catch (error) {
    return check({
      area: 'data',
      name: folder,
      status: 'fail',
      detail: errorMessage(error),
      fix: 'choose a writable folder with --data-dir or DIGEST_DATA_DIR',
    });
  }
  const info = await stat(folder).catch(() => null);
  if (!info)
    return check({
      area: 'data',
      name: folder,
      status: 'ok',
      detail: 'will be created on first use (its parent is writable)',
    });
  // The database holds subscribers' addresses and the desk's password hashes: no one else should read it.
  const shared = info.mode & 0o077;
  if (shared) {
    return check({
      area: 'data',
      name: folder,
      status: 'fail',
      detail: `readable by other users (mode ${(info.mode & 0o777).toString(8)})`,
      fix: `chmod 700 ${folder}`,
    });
  }
  return check({ area: 'data', name: folder, status: 'ok', detail: 'writable, private (mode 700)' });
}

export async function checkSources(
  config: Config,
  options: { now: Date; deadlineMs: number },
): Promise<DoctorCheck[]> {
  const http = createHttpClient({
    timeoutMs: options.deadlineMs,
    maxBytes: config.http.maxBytes,
    retries: 0,
    allowLoopback: config.http.allowLoopback,
    ...(config.http.userAgent ? { userAgent: config.http.userAgent } : {}),
  });
  const day = latestMonday(options.now);
  return Promise.all(
    config.sources.map(async (source, index): Promise<DoctorCheck> => {
      if (!source.enabled)
        return check({ area: 'source', name: source.id, status: 'skip', detail: 'disabled' });
      if (!source.url)
        return check({
          area: 'source',
          name: source.id,
          status: 'skip',
          detail: 'manual source (nothing to fetch)',
        });
      const started = performance.now();
      try {
        const response = await http.request({
          url: source.url.replaceAll('{date}', day),
          trusted: true,
          timeoutMs: options.deadlineMs,
          signal: AbortSignal.timeout(options.deadlineMs),
        });
        const ms = Math.round(performance.now() - started);
        return check({
          area: 'source',
          name: source.id,
          status: 'ok',
          detail: `HTTP ${response.status} in ${ms} ms`,
        });
      } catch (error) {
        return check({
          area: 'source',
          name: source.id,
          status: 'fail',
          detail: `unreachable: ${errorMessage(error)}`,
          fix: `check sources[${index}].url (${source.url}) and the network, or set "enabled": false for it`,
        });
      }
    }),
  );
}

/** The public address (links in mails and feeds) and the secret that signs subscriber links. */
export function checkPublishing(config: Config, env: NodeJS.ProcessEnv): DoctorCheck[] {
  const checks: DoctorCheck[] = [];
  const baseUrl = config.server.baseUrl ?? config.publish.baseUrl;
  if (!baseUrl) {
    checks.push(
      check({
        area: 'publish',
        name: 'base URL',
        status: 'fail',
        detail: 'not set: feeds, sitemap and mail links need the address readers reach the site at',
        fix: 'set publish.baseUrl (and server.baseUrl when `digest serve` answers elsewhere) to https://…',
      }),
    );
  } else if (!baseUrl.startsWith('https://') && !/^http:\/\/(localhost|127\.0\.0\.1)[:/]/.test(baseUrl)) {
    checks.push(
      check({
        area: 'publish',
        name: 'base URL',
        status: 'warn',
        detail: `${baseUrl} is not https: one-click unsubscribe needs https`,
        fix: 'serve the site over https and set that address',
      }),
    );
  } else checks.push(check({ area: 'publish', name: 'base URL', status: 'ok', detail: baseUrl }));
  const mails = Boolean(config.publish.email.smtp) || config.server.subscribeForm;
  try {
    readSecret(env);
    checks.push(
      check({ area: 'secret', name: 'DIGEST_SECRET', status: 'ok', detail: 'set (at least 32 bytes)' }),
    );
  } catch (error) {
    checks.push(
      check({
        area: 'secret',
        name: 'DIGEST_SECRET',
        status: mails ? 'fail' : 'warn',
        detail: mails
          ? (errorMessage(error).split(/: |\. /)[0] ?? '')
          : 'not set (needed once readers subscribe)',
        fix: 'set DIGEST_SECRET to `openssl rand -base64 48`, and keep it: changing it breaks links already mailed',
      }),
    );
  }
  return checks;
}
