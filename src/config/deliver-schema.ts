// Delivery settings: chat channels the published edition is posted to, and mail services a draft is
// handed to. Webhook URLs, bot tokens and API keys are secrets: the config names the environment variable that
// holds each one, and the value is read only when a delivery runs.
import { z } from 'zod';
import { httpUrl, uniqueIds } from './schema-rules.js';

const envName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'the name of an environment variable (e.g. "DIGEST_SLACK_WEBHOOK_URL")');

export const CHAT_TYPES = ['slack', 'discord', 'telegram'] as const;

/** Per call; a slow chat server is reported and retried on the next run instead of holding up the others. */
const timeoutMs = z.number().int().positive().max(120_000).default(15_000);

const channelId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._-]*$/i, 'use letters, digits, ".", "_" or "-" (e.g. "team-slack")');

const webhookChannel = <T extends 'slack' | 'discord'>(type: T) =>
  z
    .object({
      id: channelId,
      type: z.literal(type),
      /** Environment variable holding the incoming-webhook URL. */
      urlEnv: envName,
      timeoutMs,
    })
    .strict();

export const telegramChannelSchema = z
  .object({
    id: channelId,
    type: z.literal('telegram'),
    /** Environment variable holding the bot token (from @BotFather). */
    tokenEnv: envName,
    /** The chat, group or channel to post to: a numeric id or "@channelusername". */
    chatId: z.string().regex(/^(-?\d+|@[A-Za-z][A-Za-z0-9_]{3,})$/, 'a numeric chat id or "@channelname"'),
    /** The Bot API's address; change it only for a local Bot API server. */
    apiUrl: httpUrl.default('https://api.telegram.org'),
    timeoutMs,
  })
  .strict();

export const chatChannelSchema = z.discriminatedUnion('type', [
  webhookChannel('slack'),
  webhookChannel('discord'),
  telegramChannelSchema,
]);

export const chatSchema = z.array(chatChannelSchema).default([]).superRefine(uniqueIds('channel'));

export const listmonkSchema = z
  .object({
    /** The listmonk instance's address (without /api). */
    url: httpUrl,
    /** Environment variables holding the API user's name and token (Admin → Users → API user). */
    userEnv: envName.default('LISTMONK_API_USER'),
    tokenEnv: envName.default('LISTMONK_API_TOKEN'),
    /** Lists the campaign is addressed to. */
    listIds: z.array(z.number().int().positive()).min(1, 'name at least one list id'),
    timeoutMs,
  })
  .strict();

export const buttondownSchema = z
  .object({
    url: httpUrl.default('https://api.buttondown.com'),
    /** Environment variable holding the API key (Settings → API). */
    tokenEnv: envName.default('BUTTONDOWN_API_KEY'),
    timeoutMs,
  })
  .strict();

export const pushSchema = z
  .object({
    listmonk: listmonkSchema.optional(),
    buttondown: buttondownSchema.optional(),
  })
  .strict()
  .prefault({});

export const PUSH_SERVICES = ['listmonk', 'buttondown'] as const;

export type ChatChannelConfig = z.infer<typeof chatChannelSchema>;
export type ChatType = (typeof CHAT_TYPES)[number];
export type PushConfig = z.infer<typeof pushSchema>;
export type PushService = (typeof PUSH_SERVICES)[number];
export type ListmonkConfig = z.infer<typeof listmonkSchema>;
export type ButtondownConfig = z.infer<typeof buttondownSchema>;
