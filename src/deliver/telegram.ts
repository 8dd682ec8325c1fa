// Telegram: the Bot API's sendMessage with parse_mode HTML. Limits (core.telegram.org/bots/api#sendmessage,
// core.telegram.org/bots/faq): 4,096 characters of text per message, about one message a second per chat.
// Only Telegram's small tag set is used (b, i, a href); untrusted text is escaped with the entities it knows.
import { z } from 'zod';
import type { ChatChannelConfig } from '../config/deliver-schema.js';
import { postJson, secretFromEnv } from './_http.js';
import { chunkMessages } from './_message-chunks.js';
import { fitEscaped } from './_text.js';
import { type ChatEdition, omittedNote } from './chat-view.js';
import type { ChatChannel, ChatMessage } from './types.js';

export const TELEGRAM_LIMITS = { text: 4096, maxMessages: 4 } as const;

/** Telegram's HTML knows &lt; &gt; &amp; &quot; (and numeric entities): nothing else may appear. */
export function escapeTelegram(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function link(url: string, text: string): string {
  return `<a href="${escapeTelegram(url)}">${text}</a>`;
}

const SEPARATOR = '\n\n';

export function renderTelegram(edition: ChatEdition, chatId: string): ChatMessage[] {
  const head = [
    `<b>${fitEscaped(edition.heading, 400, escapeTelegram)}</b>\n<i>${escapeTelegram(edition.dateline)}</i>`,
    fitEscaped(edition.intro, 1500, escapeTelegram),
  ];
  const items = edition.items.map((item) => {
    const title = fitEscaped(item.title, 400, escapeTelegram);
    const heading = item.url ? `<b>${link(item.url, title)}</b>` : `<b>${title}</b>`;
    const summary = fitEscaped(item.summary, 1200, escapeTelegram);
    return `${heading}\n${summary}\n<i>${fitEscaped(`${item.level} · via ${item.source}`, 200, escapeTelegram)}</i>`;
  });
  const tail = (omitted: number) => {
    const note = omittedNote(omitted);
    return link(
      edition.pageUrl,
      escapeTelegram(note ? `${note}: read it on the web →` : 'Read the whole edition on the web →'),
    );
  };
  const messages = chunkMessages({
    head,
    items,
    tail,
    fits: (pieces) => pieces.join(SEPARATOR).length <= TELEGRAM_LIMITS.text,
    maxMessages: TELEGRAM_LIMITS.maxMessages,
  });
  return messages.map((pieces) => ({
    chat_id: chatId,
    text: pieces.join(SEPARATOR),
    parse_mode: 'HTML',
    link_preview_options: { is_disabled: true },
  }));
}

const sendMessageAnswer = z.object({ ok: z.boolean(), description: z.string().optional() });

export function telegramChannel(
  config: Extract<ChatChannelConfig, { type: 'telegram' }>,
  env: NodeJS.ProcessEnv,
): ChatChannel {
  const token = secretFromEnv(env, config.tokenEnv, `chat.${config.id}.tokenEnv`);
  const url = `${config.apiUrl.replace(/\/+$/, '')}/bot${token}/sendMessage`;
  const label = `telegram channel "${config.id}"`;
  return {
    id: config.id,
    type: 'telegram',
    secrets: [token, url],
    // "No more than one message per second" in a single chat (Bot API FAQ).
    minIntervalMs: 1000,
    render: (edition) => renderTelegram(edition, config.chatId),
    async send(message, context) {
      const body = await postJson({ url, label, timeoutMs: config.timeoutMs, body: message }, context);
      let answer: z.infer<typeof sendMessageAnswer> | null = null;
      try {
        answer = sendMessageAnswer.parse(JSON.parse(body.toString('utf8')));
      } catch {
        throw new Error(`${label}: the Bot API answered something other than its documented JSON`);
      }
      if (!answer.ok)
        throw new Error(
          `${label}: the Bot API refused the message (${answer.description ?? 'no reason given'})`,
        );
    },
  };
}
