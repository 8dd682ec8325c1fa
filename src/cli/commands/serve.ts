import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { ServerConfig } from '../../config/server-schema.js';
import { ConfigError } from '../../core/errors.js';
import { createDigestMetrics, createServerApp, startServer } from '../../server/index.js';
import { readSecret } from '../../subscribers/secret.js';
import type { CliContext } from '../context.js';
import { type CommonOptions, withRuntime } from '../runtime.js';

interface ServeOptions extends CommonOptions {
  host?: string;
  port?: string;
  site: string;
}

/** A port from a flag or the environment; `field` names where it came from in the error (exit 2). */
export function parsePort(value: string, field: string): number {
  const port = /^\d{1,5}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isInteger(port) || port > 65_535) {
    throw new ConfigError(`${field} must be a port number from 0 to 65535 (got "${value}").`, [
      { path: field, message: 'not a port number' },
    ]);
  }
  return port;
}

/** What the flags and the environment say (--host/--port over PORT); the config's server section fills the rest. */
export function listenOverrides(
  options: { host?: string; port?: string },
  env: NodeJS.ProcessEnv,
): { host?: string; port?: number } {
  if (options.host !== undefined && !options.host.trim()) {
    throw new ConfigError('--host must not be empty.', [{ path: '--host', message: 'empty' }]);
  }
  const port =
    options.port !== undefined
      ? parsePort(options.port, '--port')
      : env.PORT
        ? parsePort(env.PORT, 'PORT')
        : undefined;
  return {
    ...(options.host !== undefined ? { host: options.host } : {}),
    ...(port !== undefined ? { port } : {}),
  };
}

export function resolveListen(
  overrides: { host?: string; port?: number },
  server: ServerConfig,
): { host: string; port: number } {
  return { host: overrides.host ?? server.host, port: overrides.port ?? server.port };
}

function waitForStopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolveSignal) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolveSignal(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

export function register(program: Command, context: CliContext): void {
  program
    .command('serve')
    .description('Serve the published site with /healthz and /metrics until SIGINT or SIGTERM')
    .option('--host <host>', 'interface to listen on (default: server.host, 127.0.0.1)')
    .option('--port <port>', 'port to listen on, 0 for any free one (default: PORT, else server.port, 8080)')
    .option('--site <dir>', 'the folder `digest publish` wrote', 'out')
    .option('--config <file>', 'config file (default: digest.config.ts/.json in this folder)')
    .option('--data-dir <dir>', 'PGlite data folder (default ./data, or DIGEST_DATA_DIR)')
    .option('--verbose', 'more log lines')
    .action(async (options: ServeOptions) => {
      // Bad flags and a missing secret stop here, before the database is opened.
      const overrides = listenOverrides(options, context.env);
      readSecret(context.env);
      await withRuntime(options, context, async (runtime) => {
        const { config, store, log } = runtime;
        const listen = resolveListen(overrides, config.server);
        const siteDir = resolve(context.cwd, options.site);
        if (!existsSync(resolve(siteDir, 'index.html'))) {
          log.warn(
            `no published site in ${siteDir} yet: run "digest publish --out ${options.site}" (serving 404s)`,
          );
        }
        const app = createServerApp({
          siteDir,
          // The cheapest query the store has today; reaching the database is what counts.
          checkDatabase: async () => {
            await store.lastIngestRun();
          },
          metrics: createDigestMetrics(),
          trustProxy: config.server.trustProxy,
          log: (line) => context.stderr.write(`${line}\n`),
        });
        const server = await startServer(app, listen);
        const stopped = waitForStopSignal();
        context.stdout.write(`${server.url}\n`);
        log.info(`Serving ${siteDir} at ${server.url} (store: ${runtime.storeLocation}); Ctrl-C stops.`);
        const signal = await stopped;
        log.info(`${signal}: closing the server…`);
        await server.close();
        log.info('Server closed; closing the store.');
      });
    });
}
