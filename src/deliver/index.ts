// The delivery registries: one factory per chat platform and per mail service, checked by the compiler against
// the types the config allows.
import type {
  ButtondownConfig,
  ChatChannelConfig,
  ChatType,
  ListmonkConfig,
  PushConfig,
  PushService,
} from '../config/deliver-schema.js';
import { buttondownService } from './buttondown.js';
import { discordChannel } from './discord.js';
import { listmonkService } from './listmonk.js';
import { slackChannel } from './slack.js';
import { telegramChannel } from './telegram.js';
import type { ChatChannel, DraftService } from './types.js';

export type ChatChannelFactory<T extends ChatType> = (
  config: Extract<ChatChannelConfig, { type: T }>,
  env: NodeJS.ProcessEnv,
) => ChatChannel;

export const CHAT_CHANNELS = {
  slack: slackChannel,
  discord: discordChannel,
  telegram: telegramChannel,
} satisfies { [T in ChatType]: ChatChannelFactory<T> };

/** Throws (naming the environment variable, never its value) when the channel's secret is missing. */
export function createChatChannel(config: ChatChannelConfig, env: NodeJS.ProcessEnv): ChatChannel {
  const factory = CHAT_CHANNELS[config.type] as ChatChannelFactory<typeof config.type>;
  return factory(config, env);
}

export interface PushConfigs {
  listmonk: ListmonkConfig;
  buttondown: ButtondownConfig;
}

export const DRAFT_SERVICES = {
  listmonk: listmonkService,
  buttondown: buttondownService,
} satisfies { [S in PushService]: (config: PushConfigs[S], env: NodeJS.ProcessEnv) => DraftService };

/** The configured service, or null when the config has no section for it; throws when its secret is missing. */
export function createDraftService(
  push: PushConfig,
  service: PushService,
  env: NodeJS.ProcessEnv,
): DraftService | null {
  const settings = push[service];
  if (!settings) return null;
  const factory = DRAFT_SERVICES[service] as (
    config: typeof settings,
    env: NodeJS.ProcessEnv,
  ) => DraftService;
  return factory(settings, env);
}

export { type ChannelResult, deliverChat } from './chat.js';
export { chatEdition } from './chat-view.js';
export { pushDraft } from './push.js';
export type { ChatChannel, DraftService } from './types.js';
