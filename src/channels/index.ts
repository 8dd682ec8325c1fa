// channels/ — the published edition beyond the site and the mail: posts to chat channels (Slack, Discord, Telegram)
// and drafts pushed to e-mail services (Buttondown, listmonk).
import { lazyModule } from '../core/lazy.js';

export type { ChatInput, ChatStep, PushInput } from './chat-and-push.js';

// chatAfterPublish: The chat step of `publish`: reported, never thrown, so a chat failure cannot undo a publish.
export const { chat, chatAfterPublish, push } = lazyModule(() => import('./chat-and-push.js'));
