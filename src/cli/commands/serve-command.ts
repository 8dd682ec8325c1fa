import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { OpenDigest } from '../../compose/index.js';
import { readSecret } from '../../config/secret.js';
import type { ServerConfig } from '../../config/server-schema.js';
import { ConfigError } from '../../core/errors.js';
import type { CliContext } from '../context.js';
import { type CommonOptions, checkDataDir, digestOptions, withStoreOptions } from '../options.js';
import { declareCommand } from './declarations.js';

interface ServeOptions extends CommonOptions {
  host?: string;
  port?: number;
  out?: string;
  /** The former name of --out: still accepted, with a line saying to use --out. */
  site?: string;
}

const PORT_RULE = 'a port number from 0 to 65535';

function toPort(value: string): number | null {
  const port = /^\d{1,5}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  return Number.isInteger(port) && port <= 65_535 ? port : null;
}

/** `--port`: checked while parsing, so a bad one exits 2 naming the flag. */
export function parsePortFlag(value: string): number {
  const port = toPort(value);
  if (port === null) throw new InvalidArgumentError(`expected ${PORT_RULE}`);
  return port;
}

/** --host/--port over PORT in the environment over the config's server section. */
export function resolveListen(
  options: { host?: string; port?: number },
  env: NodeJS.ProcessEnv,
  server: Pick<ServerConfig, 'host' | 'port'>,
): { host: string; port: number } {
  let port = options.port;
  if (port === undefined && env.PORT) {
    const fromEnv = toPort(env.PORT);
    if (fromEnv === null) {
      throw new ConfigError(`PORT must be ${PORT_RULE} (got "${env.PORT}").`, [
        { path: 'PORT', message: 'not a port number' },
      ]);
    }
    port = fromEnv;
  }
  return { host: options.host ?? server.host, port: port ?? server.port };
}

/** Resolves with the signal's name when the CLI entry aborts on SIGINT/SIGTERM: a server's normal end. */
function stopped(signal: AbortSignal | undefined): Promise<string> {
  if (!signal) return new Promise(() => {});
  const name = () => (signal.reason as { signal?: string } | undefined)?.signal ?? 'stop';
  if (signal.aborted) return Promise.resolve(name());
  return new Promise((resolveStop) =>
    signal.addEventListener('abort', () => resolveStop(name()), { once: true }),
  );
}

export function register(program: Command, context: CliContext): void {
  const command = declareCommand(program, 'serve')
    .option('--host <host>', 'interface to listen on (default: server.host, 127.0.0.1)')
    .option(
      '--port <port>',
      'port to listen on, 0 for any free one (default: PORT, else server.port, 8080)',
      parsePortFlag,
    )
    .option('--out <dir>', 'the site folder `digest publish --out` wrote (default out)')
    .addOption(new Option('--site <dir>', 'the former name of --out').hideHelp());
  withStoreOptions(command).action(async (options: ServeOptions) => {
    // A bad PORT and a missing secret stop here, before the database is opened.
    if (options.host !== undefined && !options.host.trim()) {
      throw new ConfigError('--host must not be empty.', [{ path: '--host', message: 'empty' }]);
    }
    resolveListen(options, context.env, { host: '', port: 0 });
    readSecret(context.env);
    await checkDataDir(options, context);
    const { withDigest } = await import('../../compose/index.js');
    await withDigest(digestOptions(options, context), (digest) => serve(digest, options, context));
  });
}

/** Composes the service from the open digest, listens until the stop signal, then closes it. */
async function serve(digest: OpenDigest, options: ServeOptions, context: CliContext): Promise<void> {
  const { log } = digest;
  // A service started by an older unit file keeps running; the line tells its operator the flag's new name.
  if (options.site !== undefined)
    log.warn('--site is the former name of --out: it still works; write --out <dir>');
  const site = options.out ?? options.site ?? 'out';
  const siteDir = resolve(context.cwd, site);
  if (!existsSync(resolve(siteDir, 'index.html'))) {
    log.warn(`no published site in ${siteDir} yet: run "./digest publish --out ${site}" (serving 404s)`);
  }
  const service = await digest.service({ siteDir, requestLog: (text) => context.stderr.write(text) });
  const running = await service.listen(resolveListen(options, context.env, digest.config.server), (url) => {
    context.stdout.write(`${url}\n`);
    log.info(`Serving ${siteDir} at ${url} (store: ${digest.storeLocation}); Ctrl-C stops.`);
  });
  const reason = await stopped(context.signal);
  log.info(`${reason}: closing the server…`);
  await running.close();
  log.info('Server closed; closing the store.');
}
