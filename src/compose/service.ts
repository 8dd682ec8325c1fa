// `digest serve` composed: the HTTP app, its metrics and health checks, the outbox worker, the shared database and the
// weekly schedule, all built here from the digest's ports. The server gets use cases and settings, never the ports;
// the CLI only parses flags, listens and waits for the stop signal.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Archive } from '../api/index.js';
import type { BackupScheduleSettings } from '../backup/index.js';
import { errorMessage } from '../core/errors.js';
import type { DigestDeps } from '../deps.js';
import type { Desk, DeskJobRunner, DeskOptions } from '../desk/index.js';
import * as editions from '../editions/index.js';
import { siteContentSecurityPolicy } from '../publish/site-policy.js';
import {
  batchedLogLines,
  createDigestMetrics,
  createOperatorApp,
  createServerApp,
  type DigestMetrics,
  type RunningServer,
  type ServerApp,
  type ServerUseCases,
  type SubscriberUseCases,
  startServer,
} from '../server/index.js';
import * as subscribers from '../subscribers/index.js';
import { type BuildProcessSettings, runBuildProcess, runDeskJobProcess } from './build-process.js';
import { type SiteSync, startSiteSync } from './site-sync.js';

/** The digest's use cases the service is made of (a Digest has them all). */
export interface ServiceUseCases {
  subscriptions: SubscriberUseCases['subscriptions'] & {
    mailStatus(): Promise<subscribers.MailStatus>;
    startOutbox(onEvent?: (event: subscribers.OutboxEvent) => void): Promise<void>;
    stopOutbox(): Promise<void>;
    wakeOutbox(): void;
  };
  readerPreferences: SubscriberUseCases['preferences'];
  archive(): Archive | Promise<Archive>;
  desk(options: DeskOptions): Promise<Desk>;
  send(input: subscribers.SendInput): Promise<subscribers.SendOutcome>;
  sendScheduler(send: subscribers.SendSchedulerOptions['send']): Promise<subscribers.SendScheduler>;
  linkRedirect(): Promise<subscribers.LinkRedirect>;
  stats: NonNullable<ServerUseCases['stats']>;
  clickTotals(): Promise<{ clicks: number; prefetched: number }>;
  scheduledEdition(input: editions.ScheduledEditionInput): Promise<editions.ScheduledEditionOutcome>;
  backupSchedule(settings: BackupScheduleSettings): Promise<{ stop(): Promise<void> }>;
  lastBackupSuccess(): Promise<number | null>;
}

export interface ServiceOptions {
  /** The published site folder (`digest serve --out`). */
  siteDir: string;
  /** Where request log lines go, written in batches (the CLI: stderr). */
  requestLog: (text: string) => void;
  /** Where the config was read from: named in the start-up hint when subscribing is off, and given to the build. */
  configFile?: string | null;
  /** The PGlite data folder (none with DATABASE_URL): the scheduled build's process opens the same database. */
  dataDir?: string | null;
}

export interface DigestService {
  /** The HTTP app (tests drive it with `app.request()`). */
  app: ServerApp;
  metrics: DigestMetrics;
  /**
   * Starts the outbox worker, shares the embedded database, listens; calls `onListening` with the address, then
   * starts the weekly schedule (schedule.enabled).
   */
  listen(at: { host: string; port: number }, onListening?: (url: string) => void): Promise<RunningService>;
}

export interface RunningService {
  url: string;
  /** Closes the server (requests in flight finish), stops the outbox and the schedule, writes the last log lines. */
  close(): Promise<void>;
}

/** The per-client limits of `digest serve`'s routes (config server.*PerMinute). */
function serverLimits(deps: DigestDeps) {
  const { apiPerMinute, mcpPerMinute, deskWritesPerMinute } = deps.config.server;
  const now = () => deps.clock.now().getTime();
  return {
    apiPerMinute,
    mcpPerMinute,
    deskWritesPerMinute,
    // The digest's clock, so the limits follow the same time as the tokens they guard (a test's fixed one).
    now,
    // PostgreSQL: one limit across the instances sharing it; PGlite: this process's memory.
    store: deps.store.rateLimits(now),
  };
}

/** Builds the server and what runs beside it once, from the digest's ports and use cases. */
export async function composeService(
  deps: DigestDeps,
  digest: ServiceUseCases,
  options: ServiceOptions,
): Promise<DigestService> {
  const { config } = deps;
  const readiness = await subscribers.subscribeReadiness(config, options.configFile ?? null);
  const settings = subscribers.subscriptionSettings(config);
  const mailStatus = settings?.canMail ? () => digest.subscriptions.mailStatus() : undefined;
  const metrics = serviceMetrics(deps, digest, mailStatus);
  const requestLines = batchedLogLines(options.requestLog);
  // Whether the last build (scheduled, or a desk action's) failed or was stopped: /healthz is "degraded" until one works.
  const lastBuild = { failed: false };
  // Instances on one PostgreSQL: this one's copy of the published site, started before it listens.
  const following: { sync: SiteSync | null } = { sync: null };
  const build = buildSettings(deps, options);
  const deskJobs: DeskJobRunner = (job) => tracked(lastBuild, runDeskJobProcess(build, job));
  // Counted links: one counter per server, its last counts written when the server closes. With analytics off the
  // links already mailed still answer (only counting stops); without the secret that signed them none can be read.
  const clicks = deps.env.DIGEST_SECRET ? await digest.linkRedirect() : null;
  const app = createServerApp({
    site: {
      dir: options.siteDir,
      contentSecurityPolicy: siteContentSecurityPolicy(config.publish.identity),
      ...(readiness.transformHtml ? { transformHtml: readiness.transformHtml } : {}),
    },
    health: {
      // The cheapest query the store has; reaching the database is what counts.
      checkDatabase: async () => {
        await deps.store.ingestRuns.last();
      },
      ...(mailStatus ? { mailStatus } : {}),
      scheduleFailed: () => lastBuild.failed,
      site: () => following.sync?.served() ?? null,
    },
    useCases: await serverUseCases({ deps, digest, options, settings, deskJobs, clicks }),
    security: {
      trustProxy: config.server.trustProxy,
      secureCookies: settings?.baseUrl.startsWith('https:') ?? false,
      metricsToken: deps.env[config.server.metricsTokenEnv],
    },
    limits: serverLimits(deps),
    metrics,
    log: requestLines.log,
  });
  const running: ServiceParts = {
    deps,
    digest,
    metrics,
    siteDir: options.siteDir,
    mailing: mailStatus !== undefined,
    build,
    lastBuild,
  };
  return {
    app,
    metrics,
    async listen(at, onListening) {
      if (deps.store.manyInstances) following.sync = await startSiteSync(deps, { siteDir: options.siteDir });
      const server = await listenWithOutbox(running, app, at);
      const missing = readiness.missing(server.url);
      if (missing) deps.log.warn(missing);
      onListening?.(server.url);
      const operator = await listenForOperator(deps, metrics, digest.stats);
      const jobs = await startJobs(running);
      return {
        url: server.url,
        async close() {
          await server.close();
          await operator?.close();
          // Requests answered are counted: the batch still in memory is written before the store closes.
          await clicks?.stop();
          // Requests already answered are stored; the mails being sent finish, the others wait in the outbox.
          await digest.subscriptions.stopOutbox();
          await jobs.stop(following.sync);
          requestLines.flush();
        },
      };
    },
  };
}

async function serverUseCases({
  deps,
  digest,
  options,
  settings,
  deskJobs,
  clicks,
}: {
  deps: DigestDeps;
  digest: ServiceUseCases;
  options: ServiceOptions;
  settings: ReturnType<typeof subscribers.subscriptionSettings>;
  deskJobs: DeskJobRunner;
  clicks: subscribers.LinkRedirect | null;
}): Promise<ServerUseCases> {
  return {
    ...(clicks ? { clicks: { follow: (request: subscribers.FollowRequest) => clicks.follow(request) } } : {}),
    // Without a public base URL no link could be mailed and no Origin checked: no subscriber routes.
    ...(settings
      ? {
          subscribers: {
            useCases: { subscriptions: digest.subscriptions, preferences: digest.readerPreferences },
            settings,
            languages: deps.config.languages,
          },
        }
      : {}),
    archive: { archive: await digest.archive(), publicUrl: deps.config.publish.baseUrl },
    // The desk's actions that build or regenerate run in their own process, like the scheduled build.
    desk: await digest.desk({
      siteDir: options.siteDir,
      jobs: deskJobs,
      mailsQueued: () => digest.subscriptions.wakeOutbox(),
    }),
    stats: digest.stats,
  };
}

/** What the running parts (outbox, schedule) are started with. */
interface ServiceParts {
  deps: DigestDeps;
  digest: ServiceUseCases;
  metrics: DigestMetrics;
  siteDir: string;
  mailing: boolean;
  build: BuildProcessSettings;
  lastBuild: { failed: boolean };
}

/** /metrics of the service: what it counts itself, and what every instance reads alike from the database. */
function serviceMetrics(
  deps: DigestDeps,
  digest: ServiceUseCases,
  mailStatus: (() => Promise<subscribers.MailStatus>) | undefined,
): DigestMetrics {
  return createDigestMetrics({
    subscribersByStatus: () => deps.store.subscribers.count(),
    // The store's own count, not a use case of subscribers/: a scrape must not load what a send runs (the mailer).
    sendLog: () => deps.store.sendLog.totals(),
    linkClicks: () => digest.clickTotals(),
    complaints: () => deps.store.mailOutcomes.complaints(),
    ...(mailStatus ? { outbox: mailStatus } : {}),
    ...(deps.config.schedule.backup ? { lastBackup: () => digest.lastBackupSuccess() } : {}),
  });
}

/** How this server's builds run in their own process: its config and database, the schedule's limits, its log. */
function buildSettings(deps: DigestDeps, options: ServiceOptions): BuildProcessSettings {
  const { schedule } = deps.config;
  return {
    configFile: options.configFile ?? null,
    dataDir: options.dataDir ?? null,
    env: deps.env,
    limits: { timeoutSeconds: schedule.buildTimeoutSeconds, memoryMb: schedule.buildMemoryMb },
    log: deps.log,
    signal: deps.signal,
  };
}

/** The build's outcome, remembered for /healthz: a build that was stopped or failed marks it degraded. */
async function tracked<T>(lastBuild: { failed: boolean }, build: Promise<T>): Promise<T> {
  try {
    const outcome = await build;
    lastBuild.failed = false;
    return outcome;
  } catch (error) {
    lastBuild.failed = true;
    throw error;
  }
}

async function listenWithOutbox(
  running: ServiceParts,
  app: ServerApp,
  at: { host: string; port: number },
): Promise<RunningServer> {
  const { deps, digest, metrics } = running;
  // The embedded database stays reachable for other digest commands (list, build, send…) while this runs; a folder
  // another serve holds is refused here, before any worker starts.
  const shared = await deps.store.shareDatabase();
  if (shared) deps.log.info(`Other digest commands reach this database through ${shared.address}.`);
  // Confirmation and welcome mails wait in the outbox (also those a stopped run left) until SMTP accepts them.
  if (running.mailing) await digest.subscriptions.startOutbox((event) => countMail(metrics, event.kind));
  const server = await startServer(app, at);
  await shared?.announce(server.url);
  return server;
}

function countMail(metrics: DigestMetrics, kind: string): void {
  if (kind === 'sent') metrics.mailsSent.inc();
  // An outbox mail that failed for now ('retry') counts too: a failing SMTP server shows at once.
  else if (kind === 'failed' || kind === 'retry') metrics.mailsFailed.inc();
}

/** The weekly schedule (schedule.enabled): a missed run catches up in the background, the server does not wait. */
async function startSchedule(running: ServiceParts): Promise<editions.Scheduler | null> {
  const { deps } = running;
  if (!deps.config.schedule.enabled) return null;
  const scheduler = await editions.createScheduler({
    schedule: deps.config.schedule,
    store: deps.store,
    clock: deps.clock,
    log: deps.log,
    ...(deps.signal ? { signal: deps.signal } : {}),
    job: (run) => scheduledBuild(running, run.week),
  });
  scheduler.start().catch((error: unknown) => deps.log.warn(`schedule: ${errorMessage(error)}`));
  return scheduler;
}

/** What runs on its own time beside the server: the weekly build, scheduled sends, backups. */
async function startJobs(running: ServiceParts) {
  const schedule = await startSchedule(running);
  const scheduledSends = await startScheduledSends(running);
  const backups = await startBackups(running);
  return {
    async stop(sync: SiteSync | null) {
      await schedule?.stop();
      await scheduledSends.stop();
      await sync?.stop();
      await backups?.stop();
    },
  };
}

/**
 * Sends set for a later time (the desk's "Send at…", `digest send --at`), performed here when due. The editor saw
 * the edition's flags and thinness when setting it; the edition, published, cannot have changed since but by a
 * correction, so it goes as published.
 */
async function startScheduledSends(running: ServiceParts): Promise<subscribers.SendScheduler> {
  const { deps, digest, metrics } = running;
  const scheduler = await digest.sendScheduler((week) =>
    digest.send({
      week,
      allowFlagged: true,
      allowThin: true,
      onEvent: (event) => countMail(metrics, event.kind),
    }),
  );
  scheduler.start().catch((error: unknown) => deps.log.warn(`scheduled send: ${errorMessage(error)}`));
  return scheduler;
}

/** Backups on their own cron (schedule.backup), in this process: a snapshot read in batches, written by zlib. */
async function startBackups(running: ServiceParts): Promise<{ stop(): Promise<void> } | null> {
  const { backup, timeZone } = running.deps.config.schedule;
  if (!backup) return null;
  return running.digest.backupSchedule({ ...backup, timeZone });
}

/**
 * The week's build and publication in its own process (never on this event loop), then the sending here: a clean,
 * auto-published edition goes to every confirmed reader, each mail counted in /metrics.
 */
async function scheduledBuild(
  running: ServiceParts,
  week: string,
): Promise<editions.ScheduledEditionOutcome> {
  const { deps, digest, metrics } = running;
  // Instances on PostgreSQL: the build's process publishes into a folder of its own, and this instance's folder
  // follows the new generation as every other instance's does, so its one writer is this process.
  const scratch = deps.store.manyInstances ? await mkdtemp(join(tmpdir(), 'digest-scheduled-')) : null;
  const siteDir = scratch ? join(scratch, 'site') : running.siteDir;
  const built = await tracked(running.lastBuild, runBuildProcess(running.build, { week, siteDir })).finally(
    async () => {
      if (scratch) await rm(scratch, { recursive: true, force: true });
    },
  );
  const send = (edition: string) =>
    digest.send({ week: edition, onEvent: (event) => countMail(metrics, event.kind) });
  return editions.sendPublished(built, send, deps.log);
}

/** server.metricsListen: the operator's own loopback listener for /metrics and /operator/stats (no token there). */
async function listenForOperator(
  deps: DigestDeps,
  metrics: DigestMetrics,
  stats: ServiceUseCases['stats'],
): Promise<RunningServer | null> {
  const at = deps.config.server.metricsListen;
  if (!at) return null;
  const split = at.lastIndexOf(':');
  const host = at.slice(0, split).replace(/^\[(.*)\]$/, '$1');
  const server = await startServer(createOperatorApp({ metrics, stats }), {
    host,
    port: Number(at.slice(split + 1)),
  });
  deps.log.info(`Operator endpoints (/metrics, /operator/stats) at ${server.url}`);
  return server;
}
