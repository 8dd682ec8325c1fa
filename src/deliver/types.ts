// The shapes of delivery: a chat channel renders an edition into messages and sends them one at a time; a draft
// service creates or updates one draft per edition in a mail tool.
import type { ChatType, PushService } from '../config/deliver-schema.js';
import type { HttpClient } from '../core/ports.js';
import type { ChatEdition } from './chat-view.js';

export interface SendContext {
  http: HttpClient;
  signal?: AbortSignal;
}

/** One message as the platform's API takes it (the JSON body). */
export type ChatMessage = Record<string, unknown>;

export interface ChatChannel {
  id: string;
  type: ChatType;
  /** Values that must never appear in a log line or error (the webhook URL, the bot token). */
  secrets: string[];
  /** Pause between two messages to the same chat, as the platform asks (Telegram: about one a second). */
  minIntervalMs: number;
  render(edition: ChatEdition): ChatMessage[];
  send(message: ChatMessage, context: SendContext): Promise<void>;
}

/** What is handed to a mail service: one edition's email. */
export interface Draft {
  /** Internal name (listmonk shows it in its campaign list). */
  name: string;
  subject: string;
  html: string;
  text: string;
}

export interface DraftRef {
  id: string;
  /** Where an editor opens the draft, when the service has such a page. */
  link: string | null;
}

export interface DraftService {
  service: PushService;
  /** The service's address: a remembered draft belongs to the instance it was made on. */
  origin: string;
  secrets: string[];
  create(draft: Draft, context: SendContext): Promise<DraftRef>;
  /** Replaces the draft's content; resolves null when the draft no longer exists there (deleted by someone). */
  update(id: string, draft: Draft, context: SendContext): Promise<DraftRef | null>;
  /**
   * A draft already there for this edition (listmonk: the campaign's name; Buttondown: the subject), or null. Asked
   * only when an earlier push may have created one without living to record its id.
   */
  find(draft: Draft, context: SendContext): Promise<DraftRef | null>;
}
