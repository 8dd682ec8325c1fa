// Posts an edition to chat channels, one channel at a time, and remembers per (edition, channel) how far each got,
// in the store: a rerun resends only what did not go out, so the edition is never lost and never posted twice.
import { setTimeout as delay } from 'node:timers/promises';
import type { ChatChannelConfig } from '../config/deliver-schema.js';
import { errorMessage } from '../core/errors.js';
import type { HttpClient, StageStore } from '../core/ports.js';
import { redact } from './_text.js';
import type { ChatEdition } from './chat-view.js';
import type { ChatChannel } from './types.js';

export const CHAT_STATE_NAMESPACE = 'chat-delivery';

/** What is kept per (edition, channel): messages already accepted by the platform, of how many. */
export interface ChatDeliveryState {
  sent: number;
  total: number;
  done: boolean;
  at: string;
  error?: string;
}

export interface ChannelResult {
  id: string;
  type: string;
  /** posted: all messages out now; already: done on an earlier run (nothing sent); failed: see error. */
  status: 'posted' | 'already' | 'failed';
  /** Messages sent by this run. */
  sent: number;
  total: number;
  error?: string;
}

export interface DeliverChatInput {
  edition: ChatEdition;
  channels: ChatChannelConfig[];
  /** Builds a channel from its config (the registry's createChatChannel); throws when its secret is missing. */
  createChannel: (config: ChatChannelConfig) => ChatChannel;
  /** Post again even where an earlier run finished (an editor asked for it). */
  again?: boolean;
  signal?: AbortSignal;
  io: ChatIo;
}

/** Where delivery state is kept, how messages are sent, and time. */
export interface ChatIo {
  store: Pick<StageStore, 'cache'>;
  http: HttpClient;
  now: () => Date;
  /** Waits between two messages to one chat; tests pass one that records instead of waiting. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export function chatStateKey(date: string, channelId: string): string {
  return `${date}/${channelId}`;
}

export async function deliverChat(input: DeliverChatInput): Promise<ChannelResult[]> {
  const results: ChannelResult[] = [];
  for (const config of input.channels) {
    input.signal?.throwIfAborted();
    results.push(await deliverToChannel(config, input));
  }
  return results;
}

async function deliverToChannel(config: ChatChannelConfig, input: DeliverChatInput): Promise<ChannelResult> {
  const { edition } = input;
  const { store } = input.io;
  const key = chatStateKey(edition.date, config.id);
  const base = { id: config.id, type: config.type };
  const previous = input.again ? null : await store.cache.get<ChatDeliveryState>(CHAT_STATE_NAMESPACE, key);
  if (previous?.done) return { ...base, status: 'already', sent: 0, total: previous.total };

  let channel: ChatChannel;
  let messages: ReturnType<ChatChannel['render']>;
  try {
    channel = input.createChannel(config);
    messages = channel.render(edition);
  } catch (error) {
    const message = errorMessage(error);
    await record(input, key, { sent: previous?.sent ?? 0, total: 0, done: false, error: message });
    return { ...base, status: 'failed', sent: 0, total: 0, error: message };
  }

  // Resume after the messages an earlier run got out (a long edition is several messages).
  const start = Math.min(previous?.sent ?? 0, messages.length);
  let sent = start;
  try {
    for (let index = start; index < messages.length; index++) {
      if (index > start) await (input.io.sleep ?? pause)(channel.minIntervalMs, input.signal);
      await channel.send(messages[index] as Record<string, unknown>, {
        http: input.io.http,
        ...(input.signal ? { signal: input.signal } : {}),
      });
      sent = index + 1;
      await record(input, key, { sent, total: messages.length, done: sent === messages.length });
    }
    if (start === messages.length) await record(input, key, { sent, total: messages.length, done: true });
    return { ...base, status: 'posted', sent: sent - start, total: messages.length };
  } catch (error) {
    if (input.signal?.aborted) throw error;
    const message = redact(errorMessage(error), channel.secrets);
    await record(input, key, { sent, total: messages.length, done: false, error: message });
    return { ...base, status: 'failed', sent: sent - start, total: messages.length, error: message };
  }
}

async function record(input: DeliverChatInput, key: string, state: Omit<ChatDeliveryState, 'at'>) {
  const value: ChatDeliveryState = { ...state, at: input.io.now().toISOString() };
  await input.io.store.cache.put({ namespace: CHAT_STATE_NAMESPACE, key, value });
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return delay(ms, undefined, signal ? { signal } : {});
}
