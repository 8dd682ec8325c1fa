// One loopback server speaking Slack's incoming webhooks, Discord's webhooks, Telegram's sendMessage, listmonk's
// campaigns API and Buttondown's emails API. Every request is checked against the limits and fields the platform
// documents (a breach is recorded in `violations` and answered 400, as the platform would); answers come from the
// hand-written fixtures in test/fixtures/deliver (see PROVENANCE.md). A test can script the next answers of one
// platform (429 with Retry-After, 5xx, or no answer at all).
import type { ServerResponse } from 'node:http';
import { readFixture } from './fixtures.js';
import { type LoopbackRequest, type LoopbackServer, startLoopback } from './loopback.js';

export const SECRETS = {
  slackPath: '/services/T0000001/B0000001/slackSecretHookToken123',
  discordPath: '/api/webhooks/112233445566778899/discordSecretWebhookTokenXyz',
  telegramToken: '123456789:TelegramSecretBotTokenAbcDef',
  listmonkUser: 'digest-api',
  listmonkToken: 'listmonkSecretApiToken987',
  buttondownToken: 'buttondownSecretApiKey654',
} as const;

export type Platform = 'slack' | 'discord' | 'telegram' | 'listmonk' | 'buttondown';

/** An answer a test asks for: 'hang' never answers (a slow server), 'pass' answers as usual. */
export type Scripted = { status: number; headers?: Record<string, string>; body?: string } | 'hang' | 'pass';

export interface Platforms {
  server: LoopbackServer;
  /** Accepted messages (parsed JSON), per platform, in order. */
  posts: Record<Platform, Record<string, unknown>[]>;
  /** Every request, accepted or not, per platform. */
  hits: Record<Platform, number>;
  violations: string[];
  script(platform: Platform, answers: Scripted[]): void;
  /** List requests (GET) per platform. */
  gets: Record<Platform, number>;
  /** listmonk campaigns and Buttondown emails as stored, by id. */
  campaigns: Map<string, Record<string, unknown>>;
  emails: Map<string, Record<string, unknown>>;
  env: Record<string, string>;
  close(): Promise<void>;
}

const fixture = (name: string) => readFixture('deliver', name).toString('utf8');

export async function startPlatforms(): Promise<Platforms> {
  const posts: Platforms['posts'] = { slack: [], discord: [], telegram: [], listmonk: [], buttondown: [] };
  const hits: Platforms['hits'] = { slack: 0, discord: 0, telegram: 0, listmonk: 0, buttondown: 0 };
  const scripts: Record<Platform, Scripted[]> = {
    slack: [],
    discord: [],
    telegram: [],
    listmonk: [],
    buttondown: [],
  };
  const violations: string[] = [];
  const gets: Platforms['gets'] = { slack: 0, discord: 0, telegram: 0, listmonk: 0, buttondown: 0 };
  const campaigns = new Map<string, Record<string, unknown>>();
  const emails = new Map<string, Record<string, unknown>>();
  let nextCampaign = 42;
  let nextEmail = 1;

  const server = await startLoopback((request, response) => {
    const platform = platformOf(request);
    if (!platform) return void response.writeHead(404).end();
    hits[platform]++;
    const scripted = scripts[platform].shift();
    if (scripted === 'hang') return new Promise<void>(() => {});
    if (scripted && scripted !== 'pass') {
      return void response
        .writeHead(scripted.status, { 'content-type': 'application/json', ...scripted.headers })
        .end(scripted.body ?? '');
    }
    const refuse = (problem: string, status = 400, body = problem) => {
      violations.push(`${platform}: ${problem}`);
      response.writeHead(status, { 'content-type': 'text/plain' }).end(body);
    };
    if (request.method === 'GET') return listDrafts(platform, request, response, refuse);
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(request.body) as Record<string, unknown>;
    } catch {
      return refuse('body is not JSON');
    }
    if (!String(request.headers['content-type']).startsWith('application/json'))
      return refuse('content-type is not application/json');
    switch (platform) {
      case 'slack': {
        const problems = slackProblems(json);
        if (problems.length) return refuse(problems.join('; '), 400, 'invalid_blocks');
        posts.slack.push(json);
        return void response.writeHead(200, { 'content-type': 'text/html' }).end(fixture('slack-ok.txt'));
      }
      case 'discord': {
        const problems = discordProblems(json);
        if (problems.length) return refuse(problems.join('; '));
        posts.discord.push(json);
        return void response.writeHead(204).end();
      }
      case 'telegram': {
        const problems = telegramProblems(json);
        if (problems.length) return refuse(problems.join('; '));
        posts.telegram.push(json);
        return void sendJson(response, 200, fixture('telegram-send-message.json'));
      }
      case 'listmonk': {
        const expected = `Basic ${Buffer.from(`${SECRETS.listmonkUser}:${SECRETS.listmonkToken}`).toString('base64')}`;
        if (request.headers.authorization !== expected) return refuse('bad credentials', 401);
        const problems = listmonkProblems(json);
        if (problems.length) return refuse(problems.join('; '));
        posts.listmonk.push({ method: request.method, path: request.path, ...json });
        const answer = JSON.parse(fixture('listmonk-campaign.json')) as { data: Record<string, unknown> };
        if (request.method === 'POST' && request.path === '/api/campaigns') {
          const id = String(nextCampaign++);
          campaigns.set(id, json);
          return void sendJson(
            response,
            200,
            JSON.stringify({ data: { ...answer.data, ...json, id: Number(id) } }),
          );
        }
        const id = /^\/api\/campaigns\/(\d+)$/.exec(request.path)?.[1];
        if (request.method === 'PUT' && id) {
          if (!campaigns.has(id)) return void sendJson(response, 404, fixture('listmonk-not-found.json'));
          campaigns.set(id, json);
          return void sendJson(
            response,
            200,
            JSON.stringify({ data: { ...answer.data, ...json, id: Number(id) } }),
          );
        }
        return refuse(`unexpected ${request.method} ${request.path}`, 405);
      }
      case 'buttondown': {
        if (request.headers.authorization !== `Token ${SECRETS.buttondownToken}`)
          return refuse('bad token', 401);
        const problems = buttondownProblems(json);
        if (problems.length) return refuse(problems.join('; '));
        posts.buttondown.push({ method: request.method, path: request.path, ...json });
        const answer = JSON.parse(fixture('buttondown-email.json')) as Record<string, unknown>;
        if (request.method === 'POST' && request.path === '/v1/emails') {
          const id = `0f3c5a2e-0000-4000-8000-${String(nextEmail++).padStart(12, '0')}`;
          emails.set(id, json);
          return void sendJson(response, 201, JSON.stringify({ ...answer, ...json, id }));
        }
        const id = /^\/v1\/emails\/([0-9a-f-]+)$/.exec(request.path)?.[1];
        if (request.method === 'PATCH' && id) {
          if (!emails.has(id)) return void sendJson(response, 404, fixture('buttondown-not-found.json'));
          emails.set(id, json);
          return void sendJson(response, 200, JSON.stringify({ ...answer, ...json, id }));
        }
        return refuse(`unexpected ${request.method} ${request.path}`, 405);
      }
    }
  });

  /**
   * listmonk's GET /api/campaigns?query=…&status=… ({ data: { results, total, page, per_page } }) and Buttondown's
   * GET /v1/emails?status=… ({ results, count, next, previous }), over what was created here.
   */
  function listDrafts(
    platform: Platform,
    request: LoopbackRequest,
    response: ServerResponse,
    refuse: (problem: string, status?: number) => void,
  ) {
    gets[platform]++;
    if (platform === 'listmonk' && request.path === '/api/campaigns') {
      const expected = `Basic ${Buffer.from(`${SECRETS.listmonkUser}:${SECRETS.listmonkToken}`).toString('base64')}`;
      if (request.headers.authorization !== expected) return refuse('bad credentials', 401);
      const query = (request.query.get('query') ?? '').toLowerCase();
      const status = request.query.get('status');
      const results = [...campaigns]
        .filter(([, campaign]) => String(campaign.name).toLowerCase().includes(query))
        .filter(([, campaign]) => !status || campaign.status === status)
        .map(([id, campaign]) => ({ ...campaign, id: Number(id) }));
      return void sendJson(
        response,
        200,
        JSON.stringify({ data: { results, total: results.length, page: 1, per_page: 100 } }),
      );
    }
    if (platform === 'buttondown' && request.path === '/v1/emails') {
      if (request.headers.authorization !== `Token ${SECRETS.buttondownToken}`)
        return refuse('bad token', 401);
      const status = request.query.get('status');
      const results = [...emails]
        .filter(([, email]) => !status || email.status === status)
        .map(([id, email]) => ({ ...email, id }));
      return void sendJson(
        response,
        200,
        JSON.stringify({ results, count: results.length, next: null, previous: null }),
      );
    }
    return refuse(`unexpected GET ${request.path}`, 405);
  }

  return {
    server,
    posts,
    gets,
    hits,
    violations,
    campaigns,
    emails,
    script: (platform, answers) => scripts[platform].push(...answers),
    env: {
      TEST_SLACK_WEBHOOK_URL: server.url(SECRETS.slackPath),
      TEST_DISCORD_WEBHOOK_URL: server.url(SECRETS.discordPath),
      TEST_TELEGRAM_BOT_TOKEN: SECRETS.telegramToken,
      TEST_LISTMONK_USER: SECRETS.listmonkUser,
      TEST_LISTMONK_TOKEN: SECRETS.listmonkToken,
      TEST_BUTTONDOWN_KEY: SECRETS.buttondownToken,
    },
    close: () => server.close(),
  };
}

/** Every string a test must never find in output: the secrets and the URLs that carry them. */
export function secretValues(platforms: Platforms): string[] {
  return [
    SECRETS.slackPath,
    SECRETS.discordPath,
    'slackSecretHookToken123',
    'discordSecretWebhookTokenXyz',
    SECRETS.telegramToken,
    'TelegramSecretBotTokenAbcDef',
    SECRETS.listmonkToken,
    SECRETS.buttondownToken,
    platforms.env.TEST_SLACK_WEBHOOK_URL as string,
    platforms.env.TEST_DISCORD_WEBHOOK_URL as string,
  ];
}

function platformOf(request: LoopbackRequest): Platform | null {
  if (request.method === 'POST' && request.path === SECRETS.slackPath) return 'slack';
  if (request.method === 'POST' && request.path === SECRETS.discordPath) return 'discord';
  if (request.method === 'POST' && request.path === `/bot${SECRETS.telegramToken}/sendMessage`)
    return 'telegram';
  if (request.path.startsWith('/api/campaigns')) return 'listmonk';
  if (request.path.startsWith('/v1/emails')) return 'buttondown';
  return null;
}

function sendJson(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(body);
}

type Json = Record<string, unknown>;

/** Block Kit limits: ≤ 50 blocks; section text ≤ 3,000; header plain_text ≤ 150; a text fallback. */
export function slackProblems(message: Json): string[] {
  const problems: string[] = [];
  const blocks = message.blocks as Json[] | undefined;
  if (!Array.isArray(blocks) || blocks.length === 0) return ['no blocks'];
  if (blocks.length > 50) problems.push(`${blocks.length} blocks (max 50)`);
  if (typeof message.text !== 'string' || !message.text) problems.push('no text fallback');
  for (const block of blocks) {
    const text = block.text as { type?: string; text?: string } | undefined;
    if (block.type === 'header') {
      if (text?.type !== 'plain_text') problems.push('header text is not plain_text');
      if ((text?.text?.length ?? 0) > 150) problems.push(`header of ${text?.text?.length} chars (max 150)`);
    } else if (block.type === 'section') {
      if (!text?.text) problems.push('empty section');
      if ((text?.text?.length ?? 0) > 3000)
        problems.push(`section of ${text?.text?.length} chars (max 3000)`);
    } else if (block.type !== 'divider') problems.push(`unexpected block ${String(block.type)}`);
  }
  return problems;
}

/** Embed limits: ≤ 10 embeds, title 256, description 4,096, footer 2,048, 25 fields, 6,000 in all; content 2,000. */
export function discordProblems(message: Json): string[] {
  const problems: string[] = [];
  const mentions = message.allowed_mentions as { parse?: unknown[] } | undefined;
  if (!Array.isArray(mentions?.parse) || mentions.parse.length !== 0)
    problems.push('allowed_mentions.parse is not []');
  if (typeof message.content === 'string' && message.content.length > 2000)
    problems.push('content over 2000');
  const embeds = (message.embeds ?? []) as Json[];
  if (!message.content && embeds.length === 0) problems.push('empty message');
  if (embeds.length > 10) problems.push(`${embeds.length} embeds (max 10)`);
  let total = 0;
  for (const embed of embeds) {
    const title = String(embed.title ?? '');
    const description = String(embed.description ?? '');
    const footer = String((embed.footer as { text?: string } | undefined)?.text ?? '');
    const fields = (embed.fields ?? []) as { name: string; value: string }[];
    if (title.length > 256) problems.push(`title of ${title.length} (max 256)`);
    if (description.length > 4096) problems.push(`description of ${description.length} (max 4096)`);
    if (footer.length > 2048) problems.push(`footer of ${footer.length} (max 2048)`);
    if (fields.length > 25) problems.push(`${fields.length} fields (max 25)`);
    if (embed.url !== undefined && !/^https?:\/\//.test(String(embed.url)))
      problems.push('embed url not http(s)');
    total += title.length + description.length + footer.length;
    for (const field of fields) total += field.name.length + field.value.length;
  }
  if (total > 6000) problems.push(`embeds of ${total} chars (max 6000)`);
  return problems;
}

/** sendMessage: text 1–4,096 characters, parse_mode HTML, valid Telegram HTML. */
export function telegramProblems(message: Json): string[] {
  const problems: string[] = [];
  if (message.chat_id === undefined) problems.push('no chat_id');
  if (message.parse_mode !== 'HTML') problems.push('parse_mode is not HTML');
  const text = message.text;
  if (typeof text !== 'string' || text.length === 0) return [...problems, 'no text'];
  if (text.length > 4096) problems.push(`text of ${text.length} chars (max 4096)`);
  problems.push(...telegramHtmlProblems(text));
  return problems;
}

const TELEGRAM_TAGS = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ins',
  's',
  'strike',
  'del',
  'a',
  'code',
  'pre',
  'blockquote',
  'tg-spoiler',
  'span',
]);

/**
 * Telegram's HTML rules (core.telegram.org/bots/api#html-style): only its tags, properly nested; every <, > and &
 * that is not part of a tag or entity escaped; only &lt; &gt; &amp; &quot; and numeric entities.
 */
export function telegramHtmlProblems(html: string): string[] {
  const problems: string[] = [];
  const open: string[] = [];
  let index = 0;
  while (index < html.length) {
    const rest = html.slice(index);
    if (rest.startsWith('<')) {
      const tag = /^<(\/?)([a-z-]+)((?:\s+[a-z-]+="[^"<>]*")*)\s*>/i.exec(rest);
      if (!tag) {
        problems.push(`raw "<" at ${index}`);
        index++;
        continue;
      }
      const [whole, closing, name] = tag as unknown as [string, string, string];
      if (!TELEGRAM_TAGS.has(name.toLowerCase())) problems.push(`tag <${name}> not allowed`);
      if (closing) {
        if (open.pop() !== name) problems.push(`</${name}> closes nothing open`);
      } else open.push(name);
      index += whole.length;
    } else if (rest.startsWith('&')) {
      const entity = /^&(lt|gt|amp|quot|#\d+|#x[0-9a-f]+);/i.exec(rest);
      if (!entity) problems.push(`bad entity at ${index}: ${rest.slice(0, 10)}`);
      index += entity ? entity[0].length : 1;
    } else {
      if (rest.startsWith('>')) problems.push(`raw ">" at ${index}`);
      index++;
    }
  }
  if (open.length) problems.push(`unclosed ${open.join(', ')}`);
  return problems;
}

/** listmonk's POST/PUT /api/campaigns fields. */
function listmonkProblems(body: Json): string[] {
  const problems: string[] = [];
  for (const field of ['name', 'subject', 'body', 'altbody'] as const)
    if (typeof body[field] !== 'string' || !body[field]) problems.push(`${field} missing`);
  if (!Array.isArray(body.lists) || !body.lists.every((id) => Number.isInteger(id)) || !body.lists.length)
    problems.push('lists must be a non-empty array of list ids');
  if (body.content_type !== 'html') problems.push('content_type is not html');
  if (body.type !== 'regular') problems.push('type is not regular');
  if (body.status !== undefined && body.status !== 'draft') problems.push('status is not draft');
  return problems;
}

/** Buttondown's POST /v1/emails and PATCH /v1/emails/{id} fields. */
function buttondownProblems(body: Json): string[] {
  const problems: string[] = [];
  if (typeof body.subject !== 'string' || !body.subject) problems.push('subject missing');
  if (typeof body.body !== 'string' || !body.body) problems.push('body missing');
  if (body.status !== 'draft') problems.push('status is not draft');
  return problems;
}
