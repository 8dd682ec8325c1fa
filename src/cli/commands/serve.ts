import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { OpenDigest } from '../../compose/index.js';
import { readSecret } from '../../config/secret.js';
import type { ServerConfig } from '../../config/server-schema.js';
import { ConfigError, errorMessage } from '../../core/errors.js';
import type { DigestMetrics } from '../../server/index.js';
import type { CliContext } from '../context.js';
import { type CommonOptions, checkDataDir, digestOptions, withStoreOptions } from '../options.js';

interface ServeOptions extends CommonOptions {
  host?: string;
  port?: number;
  out?: string;
  /** The former name of --out, still accepted. */
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

/** The weekly schedule (schedule.enabled): a missed run catches up in the background, the server does not wait. */
function countMail(metrics: DigestMetrics, kind: string): void {
  if (kind === 'sent') metrics.mailsSent.inc();
  // An outbox mail that failed for now ('retry') counts too: a failing SMTP server shows at once.
  else if (kind === 'failed' || kind === 'retry') metrics.mailsFailed.inc();
}

async function startSchedule(
  digest: OpenDigest,
  siteDir: string,
  signal: AbortSignal | undefined,
  metrics: DigestMetrics,
) {
  const { config, deps } = digest;
  if (!config.schedule.enabled) return null;
  const { createScheduler } = await import('../../editions/index.js');
  const scheduler = await createScheduler({
    schedule: config.schedule,
    store: deps.store,
    clock: deps.clock,
    log: deps.log,
    ...(signal ? { signal } : {}),
    job: (run) =>
      digest.scheduledEdition({
        week: run.week,
        siteDir,
        // A clean, auto-published edition goes to every confirmed reader; each mail counts in /metrics.
        send: (week: string) => digest.send({ week, onEvent: (event) => countMail(metrics, event.kind) }),
      }),
  });
  scheduler.start().catch((error: unknown) => deps.log.warn(`schedule: ${errorMessage(error)}`));
  return scheduler;
}

export function register(program: Command, context: CliContext): void {
  const command = program
    .command('serve')
    .description('Serve the published site with /healthz and /metrics until SIGINT or SIGTERM (then exit 0)')
    .option('--host <host>', 'interface to listen on (default: server.host, 127.0.0.1)')
    .option(
      '--port <port>',
      'port to listen on, 0 for any free one (default: PORT, else server.port, 8080)',
      parsePortFlag,
    )
    .option('--out <dir>', 'the site folder `digest publish --out` wrote (default out)')
    .addOption(new Option('--site <dir>', 'the same as --out').hideHelp());
  withStoreOptions(command).action(async (options: ServeOptions) => {
    // A bad PORT and a missing secret stop here, before the database is opened.
    if (options.host !== undefined && !options.host.trim()) {
      throw new ConfigError('--host must not be empty.', [{ path: '--host', message: 'empty' }]);
    }
    resolveListen(options, context.env, { host: '', port: 0 });
    readSecret(context.env);
    await checkDataDir(options, context);
    const { withDigest } = await import('../../compose/index.js');
    const { batchedLogLines, createDigestMetrics, createServerApp, startServer } = await import(
      '../../server/index.js'
    );
    const { siteContentSecurityPolicy } = await import('../../compose/index.js');
    const { subscribeReadiness } = await import('../../subscribers/index.js');
    const { subscriptionSettings } = await import('../../subscribers/index.js');
    await withDigest(digestOptions(options, context), async (digest) => {
      const log = digest.deps.log;
      const listen = resolveListen(options, context.env, digest.config.server);
      const site = options.out ?? options.site ?? 'out';
      const siteDir = resolve(context.cwd, site);
      if (!existsSync(resolve(siteDir, 'index.html'))) {
        log.warn(`no published site in ${siteDir} yet: run "digest publish --out ${site}" (serving 404s)`);
      }
      const subscribing = subscribeReadiness(digest.config, digest.configFile);
      const subscriptions = subscriptionSettings(digest.config);
      const mailing = subscriptions?.canMail === true;
      const metrics = createDigestMetrics({
        subscribersByStatus: () => digest.deps.store.countSubscribers(),
        sendLog: () => digest.sendLogCounts(),
        ...(mailing ? { outbox: () => digest.subscriptions.mailStatus() } : {}),
      });
      const requestLines = batchedLogLines((text) => context.stderr.write(text));
      const app = createServerApp({
        digest,
        siteDir,
        // The cheapest query the store has; reaching the database is what counts.
        checkDatabase: async () => {
          await digest.deps.store.lastIngestRun();
        },
        metrics,
        contentSecurityPolicy: siteContentSecurityPolicy(),
        trustProxy: digest.config.server.trustProxy,
        log: requestLines.log,
        archive: { archive: await digest.archive(), publicUrl: digest.config.publish.baseUrl },
        desk: await digest.desk({ siteDir }),
        ...(subscribing.transformHtml ? { transformHtml: subscribing.transformHtml } : {}),
        ...(mailing ? { mailStatus: () => digest.subscriptions.mailStatus() } : {}),
        metricsToken: context.env[digest.config.server.metricsTokenEnv],
        secureCookies: subscriptions?.baseUrl.startsWith('https:') ?? false,
        apiPerMinute: digest.config.server.apiPerMinute,
        mcpPerMinute: digest.config.server.mcpPerMinute,
      });
      // Confirmation and welcome mails wait in the outbox (also those a stopped run left) until SMTP accepts them.
      if (mailing) await digest.subscriptions.startOutbox((event) => countMail(metrics, event.kind));
      // The embedded database stays reachable for other digest commands (list, build, send…) while this runs.
      const shared = await digest.deps.store.shareDatabase();
      if (shared) log.info(`Other digest commands reach this database through ${shared.address}.`);
      const server = await startServer(app, listen);
      const missing = subscribing.missing(server.url);
      if (missing) log.warn(missing);
      context.stdout.write(`${server.url}\n`);
      log.info(`Serving ${siteDir} at ${server.url} (store: ${digest.storeLocation}); Ctrl-C stops.`);
      const schedule = await startSchedule(digest, siteDir, context.signal, metrics);
      const reason = await stopped(context.signal);
      log.info(`${reason}: closing the server…`);
      await server.close();
      // Requests already answered are stored; the mails being sent finish, the others wait in the outbox.
      await digest.subscriptions.stopOutbox();
      await schedule?.stop();
      requestLines.flush();
      log.info('Server closed; closing the store.');
    });
  });
}
