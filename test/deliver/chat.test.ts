// Chat delivery against loopback servers that check each platform's documented limits: splitting, escaping,
// rate limits and failures, and the per-(edition, channel) record that makes reruns resend only what failed.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.js';
import type { Logger } from '../../src/core/ports.js';
import type { Edition } from '../../src/core/types.js';
import { CHAT_STATE_NAMESPACE, chatStateKey } from '../../src/deliver/chat.js';
import { chatEdition, createChatChannel, deliverChat } from '../../src/deliver/index.js';
import { createHttpClient } from '../../src/net/http-client.js';
import { type Platforms, secretValues, startPlatforms } from '../support/chat-platforms.js';
import { useTestStore } from '../support/database.js';
import { hostileEdition, longEdition, PAGE_URL, WEEK } from '../support/delivery-editions.js';
import { readFixture } from '../support/fixtures.js';
import { referenceEdition } from '../support/reference-edition.js';

let platforms: Platforms;
beforeAll(async () => {
  platforms = await startPlatforms();
});
afterAll(() => platforms.close());

const store = useTestStore();

function channels(overrides: { telegramTimeoutMs?: number } = {}) {
  return parseConfig({
    chat: [
      { id: 'team-slack', type: 'slack', urlEnv: 'TEST_SLACK_WEBHOOK_URL' },
      { id: 'community', type: 'discord', urlEnv: 'TEST_DISCORD_WEBHOOK_URL' },
      {
        id: 'tg',
        type: 'telegram',
        tokenEnv: 'TEST_TELEGRAM_BOT_TOKEN',
        chatId: '@llmnewsdigest',
        apiUrl: platforms.server.origin,
        ...(overrides.telegramTimeoutMs ? { timeoutMs: overrides.telegramTimeoutMs } : {}),
      },
    ],
  }).chat;
}

interface Run {
  waits: number[];
  lines: string[];
}

let run: Run;
beforeEach(() => {
  run = { waits: [], lines: [] };
  for (const list of Object.values(platforms.posts)) list.length = 0;
  for (const key of Object.keys(platforms.hits) as (keyof Platforms['hits'])[]) platforms.hits[key] = 0;
  platforms.violations.length = 0;
});

async function deliver(
  edition: Edition,
  options: { telegramTimeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
) {
  const log: Logger = {
    info: (line) => run.lines.push(line),
    warn: (line) => run.lines.push(line),
    debug: (line) => run.lines.push(line),
  };
  const http = createHttpClient({
    timeoutMs: 5000,
    maxBytes: 1024 * 1024,
    retries: 2,
    log,
    backoff: {
      random: () => 0.5,
      // Waits are recorded, not slept: Retry-After and backoff are asserted on, not timed.
      sleep: async (ms) => {
        run.waits.push(ms);
      },
    },
  });
  return deliverChat({
    edition: chatEdition(edition, PAGE_URL),
    channels: channels(options),
    createChannel: (config) => createChatChannel(config, options.env ?? platforms.env),
    io: {
      store: store(),
      http,
      now: () => new Date('2026-05-04T10:00:00Z'),
      sleep: async (ms) => {
        run.waits.push(ms);
      },
    },
  });
}

const texts = (messages: Record<string, unknown>[]) => messages.map((message) => JSON.stringify(message));

describe('chat delivery', () => {
  it('posts the reference edition to Slack, Discord and Telegram within their limits, linking the page', async () => {
    const results = await deliver(referenceEdition());
    expect(results.map((result) => [result.id, result.status])).toEqual([
      ['team-slack', 'posted'],
      ['community', 'posted'],
      ['tg', 'posted'],
    ]);
    expect(platforms.violations).toEqual([]);
    const slack = platforms.posts.slack;
    expect(slack).toHaveLength(1);
    const blocks = slack[0]?.blocks as { type: string; text?: { text: string } }[];
    expect(blocks[0]).toMatchObject({
      type: 'header',
      text: { text: expect.stringContaining('Agents in Production') },
    });
    expect(JSON.stringify(blocks.at(-1))).toContain(PAGE_URL);
    // Every item is there, linked.
    expect(blocks.filter((block) => block.text?.text.startsWith('*<https://'))).toHaveLength(12);
    expect(slack[0]).toMatchObject({ unfurl_links: false });
    // 13 embeds do not fit Discord's 10 per message: two messages, the second pointing at the page.
    expect(platforms.posts.discord).toHaveLength(2);
    expect(platforms.posts.discord.at(-1)?.content).toContain(`<${PAGE_URL}>`);
    const telegram = platforms.posts.telegram;
    expect(telegram.length).toBeGreaterThanOrEqual(1);
    expect(telegram.at(-1)?.text).toContain(`<a href="${PAGE_URL}">`);
    expect(telegram[0]).toMatchObject({ chat_id: '@llmnewsdigest', parse_mode: 'HTML' });
    expect(results.map((result) => result.sent)).toEqual([1, 2, telegram.length]);
  });

  it('splits a 100-item edition within every limit and says what is left on the page', async () => {
    const results = await deliver(longEdition());
    expect(results.every((result) => result.status === 'posted')).toBe(true);
    expect(platforms.violations).toEqual([]);
    expect(platforms.posts.slack.length).toBeLessThanOrEqual(3);
    expect(platforms.posts.discord).toHaveLength(3);
    expect(platforms.posts.telegram).toHaveLength(4);
    for (const messages of [platforms.posts.slack, platforms.posts.discord, platforms.posts.telegram]) {
      const last = JSON.stringify(messages.at(-1));
      expect(last).toContain(PAGE_URL);
    }
    // Discord and Telegram cannot carry 100 long items in their message budget: the rest is counted, not lost.
    expect(JSON.stringify(platforms.posts.discord.at(-1))).toMatch(/and \d+ more items in the edition/);
    expect(String(platforms.posts.telegram.at(-1)?.text)).toMatch(/and \d+ more items in the edition/);
    // Summaries are cut with an ellipsis, never mid-entity (the Telegram server checks entity validity).
    expect(String(platforms.posts.telegram[1]?.text)).toContain('…');
    for (const message of platforms.posts.telegram)
      expect(String(message.text).length).toBeLessThanOrEqual(4096);
    // Telegram is paced: about one message a second to one chat.
    expect(run.waits.filter((ms) => ms === 1000).length).toBeGreaterThanOrEqual(3);
  });

  it('neutralises mentions, markdown, links and HTML in item text on every platform', async () => {
    const results = await deliver(hostileEdition());
    expect(results.every((result) => result.status === 'posted')).toBe(true);
    expect(platforms.violations).toEqual([]);

    const slack = texts(platforms.posts.slack).join('\n');
    expect(slack).not.toMatch(/<!channel>|<!here|<@U024BE7LH>|<https:\/\/evil|<script|<a href|<javascript/);
    expect(slack).toContain('&lt;!channel&gt;');
    expect(slack).toContain('&amp;amp; &amp;lt; &amp; AT&amp;T');

    const discord = platforms.posts.discord;
    for (const message of discord) expect(message.allowed_mentions).toEqual({ parse: [] });
    const embeds = discord.flatMap((message) => message.embeds as { title: string; description: string }[]);
    const visible = embeds.map((embed) => `${embed.title}\n${embed.description}`).join('\n');
    expect(visible).not.toMatch(/(^|[^\\])\*\*bold|(^|[^\\])\[click me\]|(^|[^\\])<@/);
    expect(visible).not.toMatch(/@everyone|@here/);
    expect(visible).toContain('@\u200beveryone');
    expect(visible).toContain('\\*\\*bold\\*\\*');
    expect(visible).toContain('\\[click me\\]');
    // The item whose URL is javascript: gets no link at all.
    expect(JSON.stringify(discord)).not.toContain('javascript:');

    const telegram = platforms.posts.telegram.map((message) => String(message.text)).join('\n');
    expect(telegram).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(telegram).toContain('&lt;a href=&quot;https://evil.example&quot;&gt;');
    expect(telegram).not.toContain('javascript:');
  });

  it('waits as a 429 asks (Retry-After header, Telegram retry_after) and then posts once', async () => {
    platforms.script('slack', [
      {
        status: 429,
        headers: { 'retry-after': '7' },
        body: readFixture('deliver', 'slack-rate-limited.txt').toString(),
      },
    ]);
    platforms.script('discord', [
      {
        status: 429,
        headers: { 'retry-after': '2' },
        body: readFixture('deliver', 'discord-rate-limited.json').toString(),
      },
    ]);
    platforms.script('telegram', [
      { status: 429, body: readFixture('deliver', 'telegram-too-many-requests.json').toString() },
    ]);
    const edition = { ...referenceEdition(), items: referenceEdition().items.slice(0, 2) };
    const results = await deliver(edition);
    expect(results.map((result) => result.status)).toEqual(['posted', 'posted', 'posted']);
    expect(run.waits).toEqual(expect.arrayContaining([7000, 2000, 3000]));
    expect(platforms.hits).toMatchObject({ slack: 2, discord: 2, telegram: 2 });
    expect(platforms.posts.slack).toHaveLength(1);
    expect(platforms.posts.discord).toHaveLength(1);
    expect(platforms.posts.telegram).toHaveLength(1);
  });

  it('retries a 5xx with backoff and posts once', async () => {
    platforms.script('discord', [{ status: 503 }, { status: 502 }]);
    const edition = { ...referenceEdition(), items: referenceEdition().items.slice(0, 2) };
    const results = await deliver(edition);
    expect(results[1]).toMatchObject({ id: 'community', status: 'posted', sent: 1 });
    expect(platforms.hits.discord).toBe(3);
    expect(platforms.posts.discord).toHaveLength(1);
    expect(run.waits.slice(0, 2)).toEqual([375, 750]);
  });

  it('reports a slow server after its timeout and still posts to the others', async () => {
    platforms.script('telegram', ['hang', 'hang', 'hang']);
    const results = await deliver(referenceEdition(), { telegramTimeoutMs: 300 });
    expect(results.map((result) => result.status)).toEqual(['posted', 'posted', 'failed']);
    expect(results[2]?.error).toMatch(/no answer from telegram channel "tg" within 300 ms/);
    const record = await store().cache.get<{ done: boolean; sent: number; error: string }>(
      CHAT_STATE_NAMESPACE,
      chatStateKey(WEEK, 'tg'),
    );
    expect(record).toMatchObject({ done: false, sent: 0 });
    expect(record?.error).toContain('within 300 ms');
  });

  it('on a rerun resends only to the channel that failed, and never twice to one that succeeded', async () => {
    platforms.script('discord', [{ status: 500 }, { status: 500 }, { status: 500 }]);
    const first = await deliver(referenceEdition());
    expect(first.map((result) => result.status)).toEqual(['posted', 'failed', 'posted']);
    expect(first[1]?.error).toMatch(/HTTP 500 from discord channel "community" after 3 attempts/);
    const slackHits = platforms.hits.slack;
    const telegramHits = platforms.hits.telegram;

    const second = await deliver(referenceEdition());
    expect(second.map((result) => result.status)).toEqual(['already', 'posted', 'already']);
    expect(platforms.hits.slack).toBe(slackHits);
    expect(platforms.hits.telegram).toBe(telegramHits);
    expect(platforms.posts.discord).toHaveLength(2);

    const third = await deliver(referenceEdition());
    expect(third.map((result) => result.status)).toEqual(['already', 'already', 'already']);
    expect(platforms.posts.discord).toHaveLength(2);
  });

  it('resumes a split edition after the messages that already went out', async () => {
    platforms.script('telegram', ['pass', { status: 500 }, { status: 500 }, { status: 500 }]);
    const first = await deliver(longEdition());
    expect(first[2]).toMatchObject({ status: 'failed', sent: 1, total: 4 });
    expect(platforms.posts.telegram).toHaveLength(1);
    const second = await deliver(longEdition());
    expect(second[2]).toMatchObject({ status: 'posted', sent: 3, total: 4 });
    const posted = platforms.posts.telegram.map((message) => String(message.text));
    expect(posted).toHaveLength(4);
    expect(new Set(posted).size).toBe(4);
  });

  it('names a missing environment variable and goes on with the other channels', async () => {
    const env = { ...platforms.env, TEST_DISCORD_WEBHOOK_URL: '' };
    const results = await deliver(referenceEdition(), { env });
    expect(results.map((result) => result.status)).toEqual(['posted', 'failed', 'posted']);
    expect(results[1]?.error).toBe(
      'the environment variable TEST_DISCORD_WEBHOOK_URL (named by chat.community.urlEnv) is not set',
    );
  });

  it('never puts a webhook URL or token into a log line, an error or the delivery record', async () => {
    platforms.script('slack', [{ status: 500 }, { status: 500 }, { status: 500 }]);
    platforms.script('discord', [{ status: 404 }]);
    platforms.script('telegram', ['hang', 'hang', 'hang']);
    const results = await deliver(referenceEdition(), { telegramTimeoutMs: 200 });
    expect(results.every((result) => result.status === 'failed')).toBe(true);
    // The retries were logged (debug), naming the channel.
    expect(run.lines.some((line) => line.includes('retrying POST slack channel "team-slack"'))).toBe(true);
    const records = await Promise.all(
      ['team-slack', 'community', 'tg'].map((id) =>
        store().cache.get(CHAT_STATE_NAMESPACE, chatStateKey(WEEK, id)),
      ),
    );
    const everything = [
      ...run.lines,
      ...results.map((result) => result.error ?? ''),
      JSON.stringify(records),
    ].join('\n');
    for (const secret of secretValues(platforms)) expect(everything).not.toContain(secret);
  });
});
