// A desk on a test store: a week of synthetic items built into a draft by the extractive writer, one editor, and
// the real Hono app (app.request()), plus helpers that sign in and read the CSRF token like a browser would.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { createDigest, type Digest } from '../../src/compose/create-digest.js';
import { parseConfig } from '../../src/config/index.js';
import { silentLogger } from '../../src/core/ports.js';
import type { SourceItem } from '../../src/core/types.js';
import type { SignInLimits } from '../../src/desk/auth.js';
import type { Desk } from '../../src/desk/desk.js';
import { createHttpClient } from '../../src/net/http-client.js';
import { nodeFileSystem } from '../../src/publish/write-site.js';
import { createServerApp } from '../../src/server/app.js';
import type { Store } from '../../src/store/types.js';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.js';

export const WEEK = '2026-05-04';
export const EDITOR = { email: 'ed@example.com', password: 'correct horse battery staple' };
export const SECOND_EDITOR = { email: 'other@example.com', password: 'another long passphrase' };
export const XSS = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=1">';

export function weekItems(count = 8): SourceItem[] {
  return Array.from({ length: count }, (_, index) => {
    const id = `2605.${String(10_000 + index)}`;
    return {
      sourceId: 'api-hf',
      url: `https://arxiv.org/abs/${id}`,
      title: index === 2 ? `Agents ${XSS} in production` : `Paper ${index + 1} on language model agents`,
      text: [
        `We study tool-using language model agents in production deployment number ${index + 1}.`,
        'Our evaluation covers forty enterprise workflows with real users and logged failures.',
        'The agents fail most often when a tool returns an unexpected error message.',
        'A simple retry policy with structured feedback halves the failure rate in our tests.',
        'We release the benchmark, the traces and the evaluation harness for other teams.',
        'Deployment cost stays below two dollars per thousand completed tasks at scale.',
      ].join(' '),
      authors: [`Author ${index + 1}`],
      arxivId: id,
      image: null,
      publishedAt: `2026-05-0${1 + (index % 3)}T08:00:00Z`,
      upvotes: 40 - index * 3,
    };
  });
}

export interface DeskHarness {
  digest: Digest;
  desk: Desk;
  app: ReturnType<typeof createServerApp>;
  siteDir: string;
  /** Where builds write the draft's page: never the site, which only a publish writes. */
  draftDir: string;
  close(): Promise<void>;
}

export async function createDeskHarness(
  store: Store,
  options: {
    limits?: SignInLimits;
    items?: SourceItem[];
    build?: boolean;
    llm?: Record<string, unknown>;
    env?: NodeJS.ProcessEnv;
    languages?: string[];
    /** publish.email (an SMTP server: approving then sends to confirmed readers). */
    email?: Record<string, unknown>;
    /** More of the config (top-level sections such as analytics, server), laid over the harness's own. */
    config?: Record<string, unknown>;
  } = {},
): Promise<DeskHarness> {
  const siteDir = await mkdtemp(join(tmpdir(), 'desk-site-'));
  const draftDir = await mkdtemp(join(tmpdir(), 'desk-drafts-'));
  const config = parseConfig({
    name: 'Test Digest',
    itemsPerEdition: 4,
    publish: { baseUrl: 'https://digest.example/', ...(options.email ? { email: options.email } : {}) },
    enrich: { enabled: false },
    ...(options.llm ? { llm: options.llm } : {}),
    ...(options.languages ? { languages: options.languages } : {}),
    ...options.config,
  });
  const digest = createDigest({
    config,
    store,
    // The real guarded client: private and loopback addresses are refused.
    http: createHttpClient({ timeoutMs: 5000, maxBytes: 1024 * 1024, retries: 0 }),
    clock: { now: () => new Date('2026-05-05T09:00:00Z') },
    log: silentLogger,
    fs: nodeFileSystem,
    env: options.env ?? {},
  });
  await store.items.upsert(options.items ?? weekItems());
  if (options.build !== false) {
    await digest.build({
      week: WEEK,
      outDir: draftDir,
      ingest: false,
      enrich: false,
      offline: true,
      check: false,
      refresh: false,
    });
  }
  await digest.editors.add(EDITOR);
  await digest.editors.add(SECOND_EDITOR);
  const desk = await digest.desk({
    siteDir,
    draftDir,
    ...(options.limits ? { signInLimits: options.limits } : {}),
  });
  const app = createServerApp({
    site: { dir: siteDir },
    health: { checkDatabase: async () => {} },
    useCases: { desk },
    // The digest's fixed clock: a spent budget does not refill during the test.
    limits: {
      deskWritesPerMinute: config.server.deskWritesPerMinute,
      now: () => Date.parse('2026-05-05T09:00:00Z'),
    },
    log: () => {},
  });
  return {
    digest,
    desk,
    app,
    siteDir,
    draftDir,
    close: async () => {
      await rm(siteDir, { recursive: true, force: true });
      await rm(draftDir, { recursive: true, force: true });
    },
  };
}

/** What the desk has stored for the week, as one string: equal before and after a request that changed nothing. */
export async function deskState(store: Store): Promise<string> {
  return JSON.stringify({
    edition: await store.editions.get(WEEK),
    decisions: await store.decisions.list(WEEK),
    edits: await store.desk.edits(WEEK),
    week: await store.desk.week(WEEK),
    approval: await store.desk.approval(WEEK),
    actions: (await store.desk.listAudit()).map((entry) => entry.action),
    readers: await store.readers.counts(),
    scheduledSend: await store.scheduledSends.waiting(WEEK),
  });
}

/** `name=value` of each Set-Cookie header. */
export function cookiesOf(response: Response): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const header of response.headers.getSetCookie()) {
    const [pair] = header.split(';');
    const [name, ...value] = pair!.split('=');
    cookies.set(name!.trim(), value.join('='));
  }
  return cookies;
}

export function csrfOf(html: string): string {
  const match = /name="csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error('no CSRF field on the page');
  return match[1]!;
}

export function form(fields: Record<string, string>): { body: string; headers: Record<string, string> } {
  return {
    body: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  };
}

export interface Browserish {
  cookie: string;
  csrf: string;
  get(path: string): Promise<Response>;
  post(path: string, fields: Record<string, string>, options?: { csrf?: string | null }): Promise<Response>;
}

/** Signs in through the real form and returns a client that sends the cookie (and the CSRF token on POSTs). */
export async function signIn(
  app: DeskHarness['app'],
  editor = EDITOR,
  clientAddress = '203.0.113.7',
): Promise<Browserish> {
  const loginPage = await app.request('/admin/login');
  const loginToken = cookiesOf(loginPage).get('digest_desk_login')!;
  const body = form({ csrf: csrfOf(await loginPage.text()), email: editor.email, password: editor.password });
  const response = await app.request('/admin/login', {
    method: 'POST',
    body: body.body,
    headers: { ...body.headers, cookie: `digest_desk_login=${loginToken}`, 'x-forwarded-for': clientAddress },
  });
  if (response.status !== 303) throw new Error(`sign-in answered ${response.status}`);
  const cookie = `digest_desk=${cookiesOf(response).get('digest_desk')}`;
  const board = await app.request(`/admin/week/${WEEK}`, { headers: { cookie } });
  const csrf = csrfOf(await board.text());
  return {
    cookie,
    csrf,
    get: async (path) => app.request(path, { headers: { cookie } }),
    post: async (path, fields, options = {}) => {
      const token = options.csrf === undefined ? csrf : options.csrf;
      const sent = form(token === null ? fields : { csrf: token, ...fields });
      return app.request(path, { method: 'POST', body: sent.body, headers: { ...sent.headers, cookie } });
    },
  };
}

/** `digest build` of the harness's week from what is stored, as the CLI runs it offline; `flags` change one thing. */
export function rebuildOffline(
  harness: DeskHarness,
  flags: Partial<Parameters<DeskHarness['digest']['build']>[0]> = {},
) {
  return harness.digest.build({
    week: WEEK,
    outDir: harness.draftDir,
    ingest: false,
    enrich: false,
    offline: true,
    check: false,
    refresh: false,
    ...flags,
  });
}

/**
 * A desk whose mail goes to a loopback SMTP server, made anew for each test of the describe block: call the getters
 * inside a test. `send` and `languages` are the test's own settings of publish.email.send and the languages.
 */
export function useMailingDesk(
  store: () => Store,
  options: { send?: Record<string, unknown>; languages?: string[] } = {},
): { harness: () => DeskHarness; smtp: () => TestSmtpServer } {
  let smtp: TestSmtpServer;
  let harness: DeskHarness;
  beforeEach(async () => {
    smtp = await startSmtpServer();
    harness = await createDeskHarness(store(), {
      email: {
        from: 'Test Digest <digest@example.org>',
        smtp: { host: '127.0.0.1', port: smtp.port, requireTls: false },
        ...(options.send ? { send: options.send } : {}),
      },
      env: { DIGEST_SECRET: 'a-test-secret-of-at-least-32-bytes-long!' },
      ...(options.languages ? { languages: options.languages } : {}),
    });
  });
  afterEach(async () => {
    await harness.close();
    await smtp.close();
  });
  return { harness: () => harness, smtp: () => smtp };
}
