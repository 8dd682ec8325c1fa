// The composition root's use cases: every entry point (CLI, server, jobs) calls these and nothing below them.
// Each use case's module is imported when first called, so a command loads only what it uses (mjml for email,
// the AI SDK for an LLM build, Readability for enrichment).

import type { SubscriberExport } from '../store/preferences.js';
import type { SubscriberStatus } from '../store/schema.js';
import type { SendCounts } from '../store/send-log.js';
import type { Archive } from './api.js';
import type { BuildInput, BuildOutcome } from './build.js';
import type { AddInput, DecideInput } from './decide.js';
import type { ChatInput, ChatOutcome, PushInput, PushOutcome } from './deliver.js';
import type { DigestDeps } from './deps.js';
import type { Desk, DeskOptions } from './desk.js';
import type { EvalInput, ModelEvaluation } from './eval.js';
import type { ListInput, ListResult } from './list.js';
import type { OutboxEvent } from './outbox-worker.js';
import type { EmailInput, EmailOutcome, PublishInput, PublishOutcome } from './publish.js';
import type { ReaderPreferencesUseCases } from './reader-preferences.js';
import type { ScheduledEditionInput, ScheduledEditionOutcome } from './schedule.js';
import type { SendInput, SendOutcome } from './send.js';
import type { StoreStatus } from './store-hints.js';
import type { SubscribeInput, Subscriptions } from './subscribe.js';
import type { ImportReport, ListedSubscriber, PutResult } from './subscribers.js';
import type { TasteInput, TasteOutcome } from './taste.js';

export function createDigest(deps: DigestDeps) {
  // One per digest: it holds the request intake and the outbox worker of confirmation and welcome mails.
  let subscriptions: Promise<Subscriptions> | undefined;
  const subscriptionsFor = () =>
    (subscriptions ??= import('./subscribe.js').then((module) => module.createSubscriptions(deps)));
  let readerPreferences: Promise<ReaderPreferencesUseCases> | undefined;
  const readerPreferencesFor = () =>
    (readerPreferences ??= import('./reader-preferences.js').then((module) =>
      module.createReaderPreferences(deps),
    ));
  return {
    deps,
    build: async (input: BuildInput): Promise<BuildOutcome> =>
      (await import('./build.js')).build(deps, input),
    list: async (input: ListInput): Promise<ListResult> => (await import('./list.js')).list(deps, input),
    /** Whether anything was stored yet, and the newest edition: what a command without --week or data says. */
    storeStatus: async (): Promise<StoreStatus> => (await import('./store-hints.js')).storeStatus(deps.store),
    taste: async (input: TasteInput): Promise<TasteOutcome> =>
      (await import('./taste.js')).taste(deps, input),
    decide: async (input: DecideInput) => (await import('./decide.js')).decide(deps, input),
    add: async (input: AddInput) => (await import('./decide.js')).add(deps, input),
    publish: async (input: PublishInput): Promise<PublishOutcome> =>
      (await import('./publish.js')).publish(deps, input),
    email: async (input: EmailInput): Promise<EmailOutcome> =>
      (await import('./publish.js')).email(deps, input),
    chat: async (input: ChatInput): Promise<ChatOutcome> => (await import('./deliver.js')).chat(deps, input),
    push: async (input: PushInput): Promise<PushOutcome> => (await import('./deliver.js')).push(deps, input),
    evaluate: async (input: EvalInput): Promise<ModelEvaluation[]> =>
      (await import('./eval.js')).evaluate(deps, input),
    subscriptions: {
      request: async (input: SubscribeInput) => (await subscriptionsFor()).request(input),
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
      startOutbox: async (onEvent?: (event: OutboxEvent) => void) =>
        (await subscriptionsFor()).startOutbox(onEvent),
      stopOutbox: async () => {
        if (subscriptions) await (await subscriptions).stopOutbox();
      },
      /** For /healthz: "degraded" while mails wait for a retry or one was given up lately. */
      mailStatus: async () => (await subscriptionsFor()).mailStatus(),
    },
    /** The reader's own edition: the page behind the signed link of every mail. */
    readerPreferences: {
      show: async (token: string) => (await readerPreferencesFor()).show(token),
      save: async (token: string, fields: Record<string, unknown>) =>
        (await readerPreferencesFor()).save(token, fields),
    },
    scheduledEdition: async (input: ScheduledEditionInput): Promise<ScheduledEditionOutcome> =>
      (await import('./schedule.js')).runScheduledEdition(deps, input),
    /** The published archive's read-only use cases (JSON API, MCP). */
    archive: async (): Promise<Archive> =>
      (await import('./api.js')).createArchive({
        store: deps.store,
        baseUrl: deps.config.publish.baseUrl,
        languages: deps.config.languages,
      }),
    /** The editor's desk (`digest serve` /admin): build once per server, it holds the sign-in rate limits. */
    desk: async (options: DeskOptions): Promise<Desk> =>
      (await import('./desk.js')).createDesk(deps, options),
    editors: {
      add: async (input: { email: string; password: string }) =>
        (await import('./desk-editors.js')).addEditor(deps, input),
      list: async () => (await import('./desk-editors.js')).listEditors(deps),
      remove: async (input: { email: string }) =>
        (await import('./desk-editors.js')).removeEditor(deps, input),
    },
    send: async (input: SendInput): Promise<SendOutcome> => (await import('./send.js')).send(deps, input),
    /** The send log by state over every edition: the hook for /metrics (mails sent, failed, uncertain). */
    sendLogCounts: async (): Promise<SendCounts> => (await import('./send.js')).sendLogCounts(deps),
    subscribers: {
      /** Each subscriber with their latest mail when it has not gone out (failed, retrying, uncertain). */
      list: async (input: { status?: SubscriberStatus } = {}): Promise<AsyncGenerator<ListedSubscriber>> =>
        (await import('./subscribers.js')).listSubscribersWithMail(deps, input.status),
      add: async (input: { email: string; confirmed: boolean }): Promise<PutResult> =>
        (await import('./subscribers.js')).addSubscriber(deps, input),
      remove: async (input: { email: string }): Promise<string> =>
        (await import('./subscribers.js')).removeSubscriber(deps, input),
      import: async (input: { csv: string; confirmed: boolean }): Promise<ImportReport> =>
        (await import('./subscribers.js')).importSubscribers(deps, input),
      export: async (input: { status?: SubscriberStatus } = {}): Promise<AsyncGenerator<string>> =>
        (await import('./subscribers.js')).exportSubscribers(deps, input),
      /** Everything stored about one reader (row, preferences, send log). */
      exportReader: async (input: { email: string }): Promise<SubscriberExport> =>
        (await import('./reader-preferences.js')).exportReader(deps, input),
    },
  };
}

export type Digest = ReturnType<typeof createDigest>;
