// channels/ — the published edition beyond the site and the mail: posts to chat channels (Slack, Discord, Telegram)
// and drafts pushed to e-mail services (Buttondown, listmonk).
import { lazy } from '../core/lazy.js';

export type { ChatInput, ChatStep, PushInput } from './chat-and-push.js';

export const chat = lazy(async () => (await import('./chat-and-push.js')).chat);

/** The chat step of `publish`: reported, never thrown, so a chat failure cannot undo a publish. */
export const chatAfterPublish = lazy(async () => (await import('./chat-and-push.js')).chatAfterPublish);

export const push = lazy(async () => (await import('./chat-and-push.js')).push);
