// Handing an edition to listmonk and Buttondown as a draft, through the use case (createDigest) on a real PGlite
// store and the real HTTP client, against loopback servers speaking the documented request and response shapes.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDigest } from '../../src/compose/create-digest.js';
import { parseConfig } from '../../src/config/index.js';
import { ConfigError } from '../../src/core/errors.js';
import type { Logger } from '../../src/core/ports.js';
import { PUSH_STATE_NAMESPACE } from '../../src/deliver/push.js';
import type { DigestDeps } from '../../src/deps.js';
import { createHttpClient } from '../../src/net/http-client.js';
import { type Platforms, SECRETS, secretValues, startPlatforms } from '../support/chat-platforms.js';
import { useTestStore } from '../support/database.js';
import { WEEK } from '../support/delivery-editions.js';
import { memoryFileSystem } from '../support/memory-fs.js';
import { referenceEdition } from '../support/reference-edition.js';

let platforms: Platforms;
beforeAll(async () => {
  platforms = await startPlatforms();
});
afterAll(() => platforms.close());

const store = useTestStore();
let lines: string[];

beforeEach(async () => {
  lines = [];
  platforms.posts.listmonk.length = 0;
  platforms.posts.buttondown.length = 0;
  platforms.violations.length = 0;
  await store().editions.save(referenceEdition());
});

function deps(env: NodeJS.ProcessEnv = platforms.env): DigestDeps {
  const log: Logger = {
    info: (line) => lines.push(line),
    warn: (line) => lines.push(line),
    debug: (line) => lines.push(line),
  };
  const config = parseConfig({
    publish: { baseUrl: 'https://digest.example.com/' },
    push: {
      listmonk: {
        url: platforms.server.origin,
        userEnv: 'TEST_LISTMONK_USER',
        tokenEnv: 'TEST_LISTMONK_TOKEN',
        listIds: [3],
      },
      buttondown: { url: platforms.server.origin, tokenEnv: 'TEST_BUTTONDOWN_KEY' },
    },
  });
  return {
    config,
    store: store(),
    http: createHttpClient({ timeoutMs: 5000, maxBytes: 1024 * 1024, retries: 0, log }),
    clock: { now: () => new Date('2026-05-04T10:00:00Z') },
    log,
    fs: memoryFileSystem(),
    env,
  };
}

function digest(env: NodeJS.ProcessEnv = platforms.env) {
  return createDigest(deps(env));
}

describe('push to a mail service', () => {
  it('creates a listmonk draft campaign with HTML and text, and updates the same one on the next push', async () => {
    const first = await digest().push({ week: WEEK, to: 'listmonk' });
    expect(first).toMatchObject({ service: 'listmonk', action: 'created', id: '42' });
    expect(first.link).toBe(`${platforms.server.origin}/admin/campaigns/42`);
    expect(platforms.violations).toEqual([]);
    const created = platforms.posts.listmonk[0] as Record<string, unknown>;
    expect(created).toMatchObject({
      method: 'POST',
      path: '/api/campaigns',
      name: `LLM News Digest ${WEEK}`,
      subject: 'LLM News Digest: Agents in Production, Safety Under Pressure (May 4, 2026)',
      lists: [3],
      content_type: 'html',
      type: 'regular',
      status: 'draft',
    });
    expect(String(created.body)).toMatch(/^<!doctype html>/i);
    expect(String(created.body)).toContain('https://digest.example.com/2026-05-04/');
    expect(String(created.altbody)).toContain('Agents in Production, Safety Under Pressure');
    expect(String(created.altbody)).not.toContain('<');

    const second = await digest().push({ week: WEEK, to: 'listmonk' });
    expect(second).toMatchObject({ action: 'updated', id: '42' });
    expect(platforms.posts.listmonk[1]).toMatchObject({ method: 'PUT', path: '/api/campaigns/42' });
    expect(platforms.campaigns.size).toBe(1);
  });

  it('creates a new listmonk draft when the remembered one was deleted there', async () => {
    const first = await digest().push({ week: WEEK, to: 'listmonk' });
    platforms.campaigns.delete(first.id);
    const second = await digest().push({ week: WEEK, to: 'listmonk' });
    expect(second.action).toBe('recreated');
    expect(second.id).not.toBe(first.id);
    expect(
      lines.some((line) => line.includes(`the draft ${first.id} for ${WEEK} no longer exists there`)),
    ).toBe(true);
    const third = await digest().push({ week: WEEK, to: 'listmonk' });
    expect(third).toMatchObject({ action: 'updated', id: second.id });
  });

  it('creates a Buttondown draft email, updates it, and recreates it after a deletion', async () => {
    const first = await digest().push({ week: WEEK, to: 'buttondown' });
    expect(first.action).toBe('created');
    expect(platforms.posts.buttondown[0]).toMatchObject({
      method: 'POST',
      path: '/v1/emails',
      subject: 'LLM News Digest: Agents in Production, Safety Under Pressure (May 4, 2026)',
      status: 'draft',
    });
    const second = await digest().push({ week: WEEK, to: 'buttondown' });
    expect(second).toMatchObject({ action: 'updated', id: first.id });
    expect(platforms.posts.buttondown[1]).toMatchObject({ method: 'PATCH', path: `/v1/emails/${first.id}` });
    platforms.emails.delete(first.id);
    const third = await digest().push({ week: WEEK, to: 'buttondown' });
    expect(third.action).toBe('recreated');
    expect(platforms.violations).toEqual([]);
  });

  for (const to of ['listmonk', 'buttondown'] as const) {
    const drafts = () => (to === 'listmonk' ? platforms.campaigns : platforms.emails);
    /** What a push that died between announcing its create and recording the service's answer leaves. */
    async function interrupt() {
      const key = `${to}/${WEEK}`;
      const state = await store().cache.get<Record<string, unknown>>(PUSH_STATE_NAMESPACE, key);
      expect(state?.id).toBeTruthy();
      await store().cache.put({ namespace: PUSH_STATE_NAMESPACE, key, value: { ...state, id: null } });
    }

    it(`finds the ${to} draft an interrupted push made, instead of making a second one`, async () => {
      drafts().clear();
      const first = await digest().push({ week: WEEK, to });
      await interrupt();
      const lookups = platforms.gets[to];
      const again = await digest().push({ week: WEEK, to });
      expect(again).toMatchObject({ action: 'updated', id: first.id });
      expect(drafts().size).toBe(1);
      expect(platforms.gets[to]).toBe(lookups + 1);
      expect(
        lines.some((line) => line.includes(`found the draft ${first.id} an interrupted push had made`)),
      ).toBe(true);
      // Recorded again: the next push updates it without looking.
      expect(await digest().push({ week: WEEK, to })).toMatchObject({ action: 'updated', id: first.id });
      expect(platforms.gets[to]).toBe(lookups + 1);
      expect(platforms.violations).toEqual([]);
    });

    it(`creates the ${to} draft when an interrupted push never reached the service`, async () => {
      drafts().clear();
      await digest().push({ week: WEEK, to });
      await interrupt();
      drafts().clear();
      const again = await digest().push({ week: WEEK, to });
      expect(again.action).toBe('created');
      expect(drafts().size).toBe(1);
      expect(await digest().push({ week: WEEK, to })).toMatchObject({ action: 'updated', id: again.id });
    });
  }

  it('names the variable when a credential is missing or refused, and never prints the token', async () => {
    const missing = { ...platforms.env, TEST_LISTMONK_TOKEN: '' };
    const error = await digest(missing)
      .push({ week: WEEK, to: 'listmonk' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(
      'TEST_LISTMONK_TOKEN (named by push.listmonk.tokenEnv) is not set',
    );

    const wrong = { ...platforms.env, TEST_BUTTONDOWN_KEY: `${SECRETS.buttondownToken}-revoked` };
    const refused = await digest(wrong)
      .push({ week: WEEK, to: 'buttondown' })
      .catch((caught: unknown) => caught as Error);
    expect(refused).toMatchObject({ name: 'DeliveryError', status: 401 });
    expect((refused as Error).message).toContain('buttondown refused the credentials (HTTP 401)');
    const output = [...lines, (refused as Error).message].join('\n');
    for (const secret of secretValues(platforms)) expect(output).not.toContain(secret);
  });

  it('asks for the config section of a service that is not configured', async () => {
    const bare = createDigest({ ...deps(), config: parseConfig({}) });
    await expect(bare.push({ week: WEEK, to: 'listmonk' })).rejects.toThrow(
      '--to listmonk needs push.listmonk',
    );
  });
});
