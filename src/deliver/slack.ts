// Slack: an incoming webhook, the edition as Block Kit. Limits (docs.slack.dev, Block Kit reference): at most 50
// blocks per message, section text at most 3,000 characters, header text at most 150. Item text is untrusted:
// &, < and > are escaped, so "<!channel>" or "<https://evil|click>" in a title shows as text.
import type { ChatChannelConfig } from '../config/deliver-schema.js';
import { webhookChannel } from './_http.js';
import { chunkMessages } from './_message-chunks.js';
import { fitEscaped } from './_text.js';
import type { ChatEdition } from './chat-view.js';
import { omittedNote } from './chat-view.js';
import type { ChatChannel, ChatMessage } from './types.js';

export const SLACK_LIMITS = { blocks: 50, sectionText: 3000, headerText: 150, maxMessages: 3 } as const;

type SlackBlock = Record<string, unknown>;

export function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function plainText(text: string): string {
  return text.replace(/</g, '‹').replace(/>/g, '›');
}

/** A URL inside <url|label>: escaped, and "|" encoded so it cannot end the URL early. */
function slackLink(url: string, label: string): string {
  return `<${escapeSlack(url).replace(/\|/g, '%7C')}|${label}>`;
}

function section(text: string): SlackBlock {
  return { type: 'section', text: { type: 'mrkdwn', text } };
}

function introText(edition: ChatEdition): string {
  const dateline = `_${escapeSlack(edition.dateline)}_\n\n`;
  return dateline + fitEscaped(edition.intro, SLACK_LIMITS.sectionText - dateline.length, escapeSlack);
}

export function renderSlack(edition: ChatEdition): ChatMessage[] {
  const head: SlackBlock[] = [
    {
      type: 'header',
      // plain_text is not parsed for mentions or links; angle brackets still become look-alikes, so the header
      // reads the same whether or not a client unescapes it.
      text: {
        type: 'plain_text',
        text: fitEscaped(edition.heading, SLACK_LIMITS.headerText, plainText),
        emoji: false,
      },
    },
    section(introText(edition)),
    { type: 'divider' },
  ];
  const items = edition.items.map((item) => {
    const title = fitEscaped(item.title, 300, escapeSlack);
    const heading = item.url ? `*${slackLink(item.url, title)}*` : `*${title}*`;
    const summary = fitEscaped(item.summary, 1800, escapeSlack);
    const footer = fitEscaped(`${item.level} · via ${item.source}`, 200, escapeSlack);
    return section(`${heading}\n${summary}\n_${footer}_`);
  });
  const tail = (omitted: number) => {
    const note = omittedNote(omitted);
    const link = slackLink(edition.pageUrl, 'Read the whole edition on the web →');
    return section(note ? `${escapeSlack(note)}: ${link}` : link);
  };
  const messages = chunkMessages({
    head,
    items,
    tail,
    fits: (blocks) => blocks.length <= SLACK_LIMITS.blocks,
    maxMessages: SLACK_LIMITS.maxMessages,
  });
  return messages.map((blocks, index) => ({
    // The notification text; clients show it where blocks cannot be shown.
    text: fitEscaped(
      messages.length > 1 ? `${edition.heading} (${index + 1}/${messages.length})` : edition.heading,
      SLACK_LIMITS.sectionText,
      escapeSlack,
    ),
    blocks,
    unfurl_links: false,
    unfurl_media: false,
  }));
}

export function slackChannel(
  config: Extract<ChatChannelConfig, { type: 'slack' }>,
  env: NodeJS.ProcessEnv,
): ChatChannel {
  // Incoming webhooks: about one message a second per channel.
  return webhookChannel(config, env, { minIntervalMs: 1000, render: renderSlack });
}
