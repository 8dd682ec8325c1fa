// The composition root's use cases: every entry point (CLI, server, jobs) calls these and nothing below them. Each
// capability is reached through its face (editions/, desk/, subscribers/, reach/), whose use cases load their modules
// when first called, so a command loads only what it uses (mjml for email, the AI SDK for an LLM build).

import type { DigestDeps } from '../deps.js';
import * as desk from '../desk/index.js';
import * as editions from '../editions/index.js';
import * as reach from '../reach/index.js';
import type { SubscriberStatus } from '../store/schema.js';
import * as subscribers from '../subscribers/index.js';

export function createDigest(deps: DigestDeps) {
  // One per digest: it holds the request intake and the outbox worker of confirmation and welcome mails.
  let subscriptions: Promise<subscribers.Subscriptions> | undefined;
  const subscriptionsFor = () => (subscriptions ??= subscribers.createSubscriptions(deps));
  let readerPreferences: Promise<subscribers.ReaderPreferencesUseCases> | undefined;
  const readerPreferencesFor = () => (readerPreferences ??= subscribers.createReaderPreferences(deps));
  return {
    deps,
    build: (input: editions.BuildInput) => editions.build(deps, input),
    list: (input: editions.ListInput) => editions.list(deps, input),
    /** Whether anything was stored yet, and the newest edition: what a command without --week or data says. */
    storeStatus: () => editions.storeStatus(deps.store),
    taste: (input: editions.TasteInput) => editions.taste(deps, input),
    decide: (input: editions.DecideInput) => editions.decide(deps, input),
    add: (input: editions.AddInput) => editions.add(deps, input),
    publish: (input: editions.PublishInput) => editions.publish(deps, input),
    email: (input: editions.EmailInput) => editions.email(deps, input),
    evaluate: (input: editions.EvalInput) => editions.evaluate(deps, input),
    scheduledEdition: (input: editions.ScheduledEditionInput) => editions.runScheduledEdition(deps, input),
    chat: (input: reach.ChatInput) => reach.chat(deps, input),
    push: (input: reach.PushInput) => reach.push(deps, input),
    subscriptions: {
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
      /** For /healthz: "degraded" while mails wait for a retry or one was given up lately. */
      mailStatus: async () => (await subscriptionsFor()).mailStatus(),
    },
    /** The reader's own edition: the page behind the signed link of every mail. */
    readerPreferences: {
      show: async (token: string) => (await readerPreferencesFor()).show(token),
      save: async (token: string, fields: Record<string, unknown>) =>
        (await readerPreferencesFor()).save(token, fields),
    },
    /** The published archive's read-only use cases (JSON API, MCP). */
    archive: () =>
      reach.createArchive({
        store: deps.store,
        baseUrl: deps.config.publish.baseUrl,
        languages: deps.config.languages,
      }),
    /** The editor's desk (`digest serve` /admin): build once per server, it holds the sign-in rate limits. */
    desk: (options: desk.DeskOptions) => desk.createDesk(deps, options),
    editors: {
      add: (input: { email: string; password: string }) => desk.addEditor(deps, input),
      list: () => desk.listEditors(deps),
      remove: (input: { email: string }) => desk.removeEditor(deps, input),
    },
    send: (input: subscribers.SendInput) => subscribers.send(deps, input),
    /** The send log by state over every edition: the hook for /metrics (mails sent, failed, uncertain). */
    sendLogCounts: () => subscribers.sendLogCounts(deps),
    subscribers: {
      /** Each subscriber with their latest mail when it has not gone out (failed, retrying, uncertain). */
      list: (input: { status?: SubscriberStatus } = {}) => subscribers.listSubscribers(deps, input.status),
      add: (input: { email: string; confirmed: boolean }) => subscribers.addSubscriber(deps, input),
      remove: (input: { email: string }) => subscribers.removeSubscriber(deps, input),
      import: (input: { csv: string; confirmed: boolean }) => subscribers.importSubscribers(deps, input),
      export: (input: { status?: SubscriberStatus } = {}) => subscribers.exportSubscribers(deps, input),
      /** Everything stored about one reader (row, preferences, send log). */
      exportReader: (input: { email: string }) => subscribers.exportReader(deps, input),
    },
  };
}

export type Digest = ReturnType<typeof createDigest>;
