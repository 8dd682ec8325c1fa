// Delivery use cases: post a published edition to the configured chat channels, and hand an edition to a mail
// service as a draft. Secrets are read from the environment variables the config names, only here, when called.

import type { PushService } from '../config/deliver-schema.js';
import { resolveBaseUrl } from '../config/inputs.js';
import { ConfigError, errorMessage, NotReadyError } from '../core/errors.js';
import { absoluteUrl } from '../core/urls.js';
import {
  type ChannelResult,
  chatEdition,
  createChatChannel,
  createDraftService,
  deliverChat,
  pushDraft,
} from '../deliver/index.js';
import type { PushResult } from '../deliver/push.js';
import type { DigestDeps } from '../deps.js';
import { loadEdition } from '../publish/load-edition.js';
import { senderIdentity } from '../publish/sender-identity.js';
import type { Store } from '../store/types.js';

/**
 * What chat posts and pushed drafts need: the published edition to send, and the cache that remembers what already
 * went out so a rerun sends only the rest. The composition root passes the full DigestDeps, which fits.
 */
export type ChannelDeps = Pick<DigestDeps, 'config' | 'log' | 'env' | 'http' | 'clock' | 'signal'> & {
  store: Pick<Store, 'editions' | 'cache'>;
};

export interface ChatInput {
  week: string;
  /** Only this channel (an id from the config's chat list). */
  channel?: string;
  /** Overrides publish.baseUrl for the links to the edition's page. */
  baseUrl?: string;
  /** Post again to channels an earlier run already finished. */
  again?: boolean;
}

export interface ChatOutcome {
  results: ChannelResult[];
  /** Channels that failed this run; a later `digest chat --week D` retries exactly these. */
  failed: number;
}

export async function chat(deps: ChannelDeps, input: ChatInput): Promise<ChatOutcome> {
  const { config, log } = deps;
  const channels = selectChannels(config.chat, input.channel);
  const edition = await loadEdition(deps.store, input.week);
  if (!edition.publishedAt) {
    throw new NotReadyError(
      `The edition of ${input.week} is not published yet; publish it first (./digest publish --week ${input.week} posts it to chat itself).`,
    );
  }
  const baseUrl = resolveBaseUrl(input.baseUrl, config.publish.baseUrl);
  const pageUrl = absoluteUrl(baseUrl, `${edition.date}/`) ?? baseUrl;
  const results = await deliverChat({
    edition: chatEdition(edition, pageUrl),
    channels,
    createChannel: (channel) => createChatChannel(channel, deps.env),
    io: { store: deps.store, http: deps.http, now: () => deps.clock.now() },
    again: input.again ?? false,
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
  for (const result of results) log.info(formatChannelLine(result, input.week));
  const failed = results.filter((result) => result.status === 'failed').length;
  if (failed) {
    log.warn(
      `${failed} chat channel(s) did not get the edition; it is published and nothing is lost. ` +
        `Run "./digest chat --week ${input.week}" to retry only those.`,
    );
  }
  return { results, failed };
}

function selectChannels(channels: ChannelDeps['config']['chat'], only: string | undefined) {
  if (channels.length === 0) {
    throw new ConfigError(
      'No chat channels are configured: add a "chat" list to the config (slack, discord or telegram).',
      [{ path: 'chat', message: 'empty' }],
    );
  }
  if (only === undefined) return channels;
  const chosen = channels.filter((channel) => channel.id === only);
  if (chosen.length === 0) {
    throw new ConfigError(
      `--channel "${only}" is not in the config's chat list (${channels.map((channel) => channel.id).join(', ')}).`,
      [{ path: '--channel', message: 'unknown channel id' }],
    );
  }
  return chosen;
}

function formatChannelLine(result: ChannelResult, week: string): string {
  const name = `${result.type} "${result.id}"`;
  if (result.status === 'already')
    return `  ✓ ${name}: already posted on an earlier run (--again posts it again)`;
  if (result.status === 'posted') return `  ✓ ${name}: posted ${result.sent} message(s)`;
  const progress = result.sent ? ` after ${result.sent} of ${result.total} message(s)` : '';
  return `  ✗ ${name}: failed${progress} — ${result.error ?? 'unknown error'} (retried by ./digest chat --week ${week})`;
}

export type ChatStep = ChatOutcome | { failed: number; error: string };

/** The chat step of `publish`: reported, never thrown, so a chat failure cannot undo a publish. */
export async function chatAfterPublish(
  deps: ChannelDeps,
  input: { week: string; baseUrl: string },
): Promise<ChatStep> {
  try {
    return await chat(deps, input);
  } catch (error) {
    if (deps.signal?.aborted) throw error;
    const message = errorMessage(error);
    deps.log.warn(
      `posting to chat failed: ${message}. The edition is published; run "./digest chat --week ${input.week}" to retry.`,
    );
    return { failed: deps.config.chat.length, error: message };
  }
}

export interface PushInput {
  week: string;
  to: PushService;
  /** Overrides publish.baseUrl for the email's "view in your browser" link. */
  baseUrl?: string;
}

export interface PushOutcome extends PushResult {
  service: PushService;
}

export async function push(deps: ChannelDeps, input: PushInput): Promise<PushOutcome> {
  const { config, log } = deps;
  const service = createDraftService(config.push, input.to, deps.env);
  if (!service) {
    throw new ConfigError(`--to ${input.to} needs push.${input.to} in the config.`, [
      { path: `push.${input.to}`, message: 'required for --to' },
    ]);
  }
  const edition = await loadEdition(deps.store, input.week);
  if (!edition.publishedAt) {
    log.warn(`the edition of ${input.week} is not published yet: its links to the web page work once it is.`);
  }
  // The email renderer loads only for a push.
  const { renderEmail } = await import('../publish/email-files.js');
  const { emailSubject } = await import('../publish/email-message.js');
  const baseUrl = input.baseUrl ?? config.publish.baseUrl;
  const email = await renderEmail(edition, {
    email: config.publish.email,
    sender: senderIdentity(config.publish.identity),
    ...(baseUrl ? { baseUrl } : {}),
  });
  const result = await pushDraft({
    service,
    date: edition.date,
    draft: {
      name: `${edition.name} ${edition.date}`,
      subject: emailSubject(edition),
      html: email.html,
      text: email.text,
    },
    store: deps.store,
    http: deps.http,
    log,
    now: () => deps.clock.now(),
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
  const verb = { created: 'Created', updated: 'Updated', recreated: 'Re-created' }[result.action];
  log.info(
    `${verb} the ${input.to} draft ${result.id} for ${input.week}${result.link ? ` (${result.link})` : ''}`,
  );
  return { ...result, service: input.to };
}
