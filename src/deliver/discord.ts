// Discord: a webhook, the edition as embeds. Limits (discord.com/developers/docs/resources/message#embed-object-
// embed-limits): 10 embeds per message, title 256, description 4,096, footer 2,048, 25 fields, and 6,000
// characters over all embeds of a message; content 2,000. Untrusted text has its markdown escaped and mentions
// broken, and every message says `allowed_mentions: { parse: [] }`, so nothing in an item can ping anyone.
import type { ChatChannelConfig } from '../config/deliver-schema.js';
import { webhookChannel } from './_http.js';
import { chunkMessages } from './_message-chunks.js';
import { fitEscaped } from './_text.js';
import { type ChatEdition, omittedNote } from './chat-view.js';
import type { ChatChannel, ChatMessage } from './types.js';

export const DISCORD_LIMITS = {
  embeds: 10,
  title: 256,
  description: 4096,
  footer: 2048,
  fields: 25,
  totalPerMessage: 6000,
  content: 2000,
  maxMessages: 3,
} as const;

interface Embed {
  title: string;
  url?: string;
  description: string;
  footer?: { text: string };
  color?: number;
}

type Piece = { embed: Embed } | { content: string };

/** Breaks @everyone/@here with a zero-width space; allowed_mentions already keeps them from pinging. */
function breakMentions(text: string): string {
  return text.replace(/@(everyone|here)/gi, '@\u200b$1');
}

/**
 * Markdown becomes literal: inline markers (bold, italics, strikethrough, code, spoilers, masked links, <@mentions>)
 * get a backslash anywhere, block markers (heading, list, quote) at the start. Text is one line after clean().
 */
export function escapeDiscord(text: string): string {
  const inline = text.replace(/[\\*_~`|<>[\]]/g, '\\$&');
  return breakMentions(inline.replace(/^[#>-]/, '\\$&').replace(/^(\d+)\./, '$1\\.'));
}

/** Footers and plain fields are not markdown: only mentions need breaking there. */
function plain(text: string): string {
  return breakMentions(text);
}

function embedSize(embed: Embed): number {
  return embed.title.length + embed.description.length + (embed.footer?.text.length ?? 0);
}

export function renderDiscord(edition: ChatEdition): ChatMessage[] {
  const head: Piece[] = [
    {
      embed: {
        title: fitEscaped(edition.heading, DISCORD_LIMITS.title, escapeDiscord),
        url: edition.pageUrl,
        description: fitEscaped(`${edition.dateline}. ${edition.intro}`, 1500, escapeDiscord),
        color: 0x2f6feb,
      },
    },
  ];
  const items: Piece[] = edition.items.map((item) => ({
    embed: {
      title: fitEscaped(item.title, DISCORD_LIMITS.title, escapeDiscord),
      ...(item.url ? { url: item.url } : {}),
      description: fitEscaped(item.summary, 900, escapeDiscord),
      footer: { text: fitEscaped(`${item.level} · via ${item.source}`, 200, plain) },
    },
  }));
  const tail = (omitted: number): Piece => {
    const note = omittedNote(omitted);
    // <url> keeps Discord from unfurling the page a second time.
    return { content: `${note ? `${note}: ` : 'Read the whole edition: '}<${edition.pageUrl}>` };
  };
  const messages = chunkMessages({
    head,
    items,
    tail,
    fits: (pieces) => {
      const embeds = pieces.flatMap((piece) => ('embed' in piece ? [piece.embed] : []));
      const total = embeds.reduce((sum, embed) => sum + embedSize(embed), 0);
      return embeds.length <= DISCORD_LIMITS.embeds && total <= DISCORD_LIMITS.totalPerMessage;
    },
    maxMessages: DISCORD_LIMITS.maxMessages,
  });
  return messages.map((pieces) => {
    const content = pieces.flatMap((piece) => ('content' in piece ? [piece.content] : [])).join('\n');
    const embeds = pieces.flatMap((piece) => ('embed' in piece ? [piece.embed] : []));
    return {
      ...(content ? { content: content.slice(0, DISCORD_LIMITS.content) } : {}),
      embeds,
      allowed_mentions: { parse: [] },
    };
  });
}

export function discordChannel(
  config: Extract<ChatChannelConfig, { type: 'discord' }>,
  env: NodeJS.ProcessEnv,
): ChatChannel {
  // Webhooks allow about 5 requests in 2 s; a 429 says how long to wait.
  return webhookChannel(config, env, { minIntervalMs: 500, render: renderDiscord });
}
