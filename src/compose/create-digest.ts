// The composition root's use cases: every entry point (CLI, server, jobs) calls these and nothing below them. The
// ports (`DigestDeps`) stay inside: what a digest hands out is use cases, never the store or the config.

import type * as backup from '../backup/index.js';
import type * as channels from '../channels/index.js';
import type { DigestDeps } from '../deps.js';
import type * as desk from '../desk/index.js';
import * as editions from '../editions/index.js';
import type { SubscriberStatus } from '../store/schema.js';
import type * as subscribers from '../subscribers/index.js';
import type { DigestService, ServiceOptions } from './service.js';

// The editions' module loads with the root (every command uses it); the others load on their first use case, so a
// build or a list loads none of the archive's schemas, the desk or the subscriber flows.
const apiModule = () => import('../api/index.js');
const channelsModule = () => import('../channels/index.js');
const deskModule = () => import('../desk/index.js');
const subscribersModule = () => import('../subscribers/index.js');
const backupModule = () => import('../backup/index.js');

export function createDigest(deps: DigestDeps) {
  const useCases = {
    ...editionUseCases(deps),
    ...archiveUseCases(deps),
    ...channelUseCases(deps),
    ...deskUseCases(deps),
    ...subscriberUseCases(deps),
    ...backupUseCases(deps),
  };
  return {
    ...useCases,
    /** `digest serve`: the HTTP app, its metrics, the outbox, the schedule — composed once from these use cases. */
    service: async (options: ServiceOptions): Promise<DigestService> =>
      (await import('./service.js')).composeService(deps, useCases, options),
  };
}

export type Digest = ReturnType<typeof createDigest>;

function editionUseCases(deps: DigestDeps) {
  return {
    build: (input: editions.BuildInput) => editions.build(deps, input),
    list: (input: editions.ListInput) => editions.list(deps, input),
    /** Whether anything was stored yet, and the newest edition: what a command without --week or data says. */
    storeStatus: () => editions.storeStatus(deps.store),
    taste: (input: editions.TasteInput) => editions.taste(deps, input),
    /** What readers did with a published edition (`digest stats`, the desk, the operator's API). */
    stats: (input: { week?: string | undefined }) => editions.readerStats(deps, input),
    /** Every edition's clicks and prefetches, for /metrics. */
    clickTotals: () => editions.clickTotals(deps),
    decide: (input: editions.DecideInput) => editions.decide(deps, input),
    add: (input: editions.AddInput) => editions.add(deps, input),
    publish: (input: editions.PublishInput) => editions.publish(deps, input),
    /** A published or mailed edition changed the one honest way: its next revision, with a reason. */
    correct: (input: editions.CorrectInput) => editions.correct(deps, input),
    /** The published text a correction may change, to edit and hand back to `correct`. */
    correctionDraft: (week: string) => editions.correctionDraft(deps, week),
    email: (input: editions.EmailInput) => editions.email(deps, input),
    evaluate: (input: editions.EvalInput) => editions.evaluate(deps, input),
    scheduledEdition: (input: editions.ScheduledEditionInput) => editions.runScheduledEdition(deps, input),
  };
}

function channelUseCases(deps: DigestDeps) {
  return {
    chat: async (input: channels.ChatInput) => (await channelsModule()).chat(deps, input),
    push: async (input: channels.PushInput) => (await channelsModule()).push(deps, input),
  };
}

function archiveUseCases(deps: DigestDeps) {
  /** The published archive's read-only use cases (JSON API, MCP). */
  const archive = async () =>
    (await apiModule()).createArchive({
      store: deps.store,
      baseUrl: deps.config.publish.baseUrl,
      languages: deps.config.languages,
    });
  return {
    archive,
    /** `digest mcp`: the archive over stdio until stdin ends or the signal aborts. */
    serveMcp: async (io: {
      stdin: NodeJS.ReadableStream;
      stdout: NodeJS.WritableStream;
      signal?: AbortSignal;
    }) => {
      const module = await apiModule();
      return module.serveMcpOverStdio(await archive(), { ...io, version: module.API_VERSION });
    },
  };
}

function backupUseCases(deps: DigestDeps) {
  return {
    /** `digest backup`: the whole store in one consistent file, while everything else goes on. */
    backup: async (input: backup.BackupInput) => (await backupModule()).takeBackup(deps, input),
    /** `digest restore`: a checked backup (compose/index.ts `checkBackup`) written into this empty store. */
    restore: async (checked: backup.CheckedBackup) => (await backupModule()).restoreBackup(deps, checked),
    /** `digest serve`'s scheduled backups (schedule.backup) and the time of the last that worked, for /metrics. */
    backupSchedule: async (settings: backup.BackupScheduleSettings) =>
      (await backupModule()).startBackupSchedule(deps, settings),
    lastBackupSuccess: async () => (await backupModule()).lastBackupSuccess(deps),
  };
}

function deskUseCases(deps: DigestDeps) {
  return {
    /** The editor's desk (`digest serve` /admin): build once per server, it holds the sign-in rate limits. */
    desk: async (options: desk.DeskOptions) => (await deskModule()).createDesk(deps, options),
    /** `digest desk-job`: a desk action that builds or regenerates, in the process `digest serve` started for it. */
    deskJob: async (job: string) => (await deskModule()).runDeskJob(deps, job),
    editors: {
      add: async (input: { email: string; password: string }) => (await deskModule()).addEditor(deps, input),
      list: async () => (await deskModule()).listEditors(deps),
      remove: async (input: { email: string }) => (await deskModule()).removeEditor(deps, input),
    },
  };
}

function subscriberUseCases(deps: DigestDeps) {
  return {
    subscriptions: subscriptionUseCases(deps),
    readerPreferences: readerPreferenceUseCases(deps),
    send: async (input: subscribers.SendInput) => (await subscribersModule()).send(deps, input),
    /** "Send at…": the edition's send set for a later time, which `digest serve` performs; and its cancel. */
    scheduleSend: async (input: subscribers.ScheduleSendInput) =>
      (await subscribersModule()).scheduleSend(deps, input),
    cancelScheduledSend: async (input: { week?: string | undefined }) =>
      (await subscribersModule()).cancelScheduledSend(deps, input),
    /** `digest serve`'s performer of scheduled sends, each through `send`. */
    sendScheduler: async (send: subscribers.SendSchedulerOptions['send']) =>
      (await subscribersModule()).createSendScheduler({
        store: deps.store,
        clock: deps.clock,
        log: deps.log,
        send,
      }),
    /** A test of the edition's mail to one address: "[Test]", links that count nothing, no send-log row. */
    sendTest: async (input: subscribers.SendTestInput) => (await subscribersModule()).sendTest(deps, input),
    /** Counted links (`/r/` of `digest serve`): build once per server, it holds the batch of counts. */
    linkRedirect: async () => (await subscribersModule()).createLinkRedirect(deps),
    subscribers: {
      /** Each subscriber with their latest mail when it has not gone out (failed, retrying, uncertain). */
      list: async (input: { status?: SubscriberStatus } = {}) =>
        (await subscribersModule()).listSubscribers(deps, input.status),
      /** `consentBy`: who asserts the reader's consent (confirmed at once); null: a confirmation mail goes out. */
      add: async (input: { email: string; consentBy: string | null; by?: string }) =>
        (await subscribersModule()).addSubscriber(deps, input),
      remove: async (input: { email: string }) => (await subscribersModule()).removeSubscriber(deps, input),
      import: async (input: { csv: string; consentBy: string | null; by?: string }) =>
        (await subscribersModule()).importSubscribers(deps, input),
      export: async (input: { status?: SubscriberStatus } = {}) =>
        (await subscribersModule()).exportSubscribers(deps, input),
      /** Everything stored about one reader (row, preferences, send log). */
      exportReader: async (input: { email: string }) => (await subscribersModule()).exportReader(deps, input),
    },
  };
}

/** One per digest: it holds the request intake and the outbox worker of confirmation and welcome mails. */
function subscriptionUseCases(deps: DigestDeps) {
  let subscriptions: Promise<subscribers.Subscriptions> | undefined;
  const subscriptionsFor = () =>
    (subscriptions ??= subscribersModule().then((module) => module.createSubscriptions(deps)));
  return {
    request: async (input: subscribers.SubscribeInput) => (await subscriptionsFor()).request(input),
    confirmInfo: async (token: string) => (await subscriptionsFor()).confirmInfo(token),
    confirm: async (token: string) => (await subscriptionsFor()).confirm(token),
    unsubscribeInfo: async (token: string) => (await subscriptionsFor()).unsubscribeInfo(token),
    unsubscribe: async (token: string) => (await subscriptionsFor()).unsubscribe(token),
    deliveryEvent: async (body: unknown) => (await subscriptionsFor()).deliveryEvent(body),
    authoriseWebhook: async (authorization: string | undefined) =>
      (await subscriptionsFor()).authoriseWebhook(authorization),
    /** Waits until every request is stored and no mail is due (nothing to wait for when no one subscribed). */
    idle: async () => {
      if (subscriptions) await (await subscriptions).idle();
    },
    /** `digest serve`: the outbox worker delivers confirmation and welcome mails, also those of earlier runs. */
    startOutbox: async (onEvent?: (event: subscribers.OutboxEvent) => void) =>
      (await subscriptionsFor()).startOutbox(onEvent),
    stopOutbox: async () => {
      if (subscriptions) await (await subscriptions).stopOutbox();
    },
    /** Only a started worker has anything to wake (a desk without `digest serve`'s outbox sends at no poll). */
    wakeOutbox: () => {
      void subscriptions?.then((started) => started.wakeOutbox());
    },
    /** For /healthz: "degraded" while mails wait for a retry or one was given up lately. */
    mailStatus: async () => (await subscriptionsFor()).mailStatus(),
  };
}

/** The reader's own edition: the page behind the signed link of every mail. */
function readerPreferenceUseCases(deps: DigestDeps) {
  let readerPreferences: Promise<subscribers.ReaderPreferencesUseCases> | undefined;
  const readerPreferencesFor = () =>
    (readerPreferences ??= subscribersModule().then((module) => module.createReaderPreferences(deps)));
  return {
    show: async (token: string) => (await readerPreferencesFor()).show(token),
    save: async (token: string, fields: Record<string, unknown>) =>
      (await readerPreferencesFor()).save(token, fields),
  };
}
