// Counted links end to end: `digest send` mails an edition through the real SMTP path to a loopback catcher, the
// real `digest serve` answers /r/, a scanner prefetches every link of a mail, two readers click two items each in
// Chromium from their received mail, and the store holds exactly those counts once the server stops (its last
// batch written at shutdown). A forged token goes to the site's home; "off" mails plain links; per-reader mode keeps
// which reader clicked, in their export, gone with `subscribers remove`, and a reader who turns "Count my clicks" off
// on the preferences page is counted but not kept; with analytics.site the published edition page's links count
// too. Needs `npm run build`.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { launchChromium } from '../support/browser.js';
import { runDigest } from '../support/cli.js';
import { seedPgliteDataDir } from '../support/database.js';
import { announceSkip, chromiumPath } from '../support/environment.js';
import { freePort } from '../support/loopback.js';
import { addReaders, BASE_URL, SECRET, seedEdition, sendConfigFile, WEEK } from '../support/send-digest.js';
import { startServe } from '../support/serve.js';
import { parseMail, startSmtpServer, type TestSmtpServer } from '../support/smtp-server.js';

const hasChromium = chromiumPath() !== null;
if (!hasChromium) announceSkip('clicks', 'Chromium is not installed');
const BROWSER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const READERS = ['ada@example.com', 'bo@example.com', 'cy@example.com'];

/** The /r/ tokens of one received mail's HTML, in mail order, each once. */
function countedTokens(html: string): string[] {
  const tokens = [...html.matchAll(/href="https:\/\/digest\.example\.org\/r\/([^"]+)"/g)].map(
    (match) => match[1]!,
  );
  return [...new Set(tokens)];
}

interface Setup {
  cwd: string;
  port: number;
  digest(...args: string[]): ReturnType<typeof runDigest>;
}

async function setUp(smtp: TestSmtpServer, analytics: unknown): Promise<Setup> {
  const cwd = await mkdtemp(join(tmpdir(), 'digest-clicks-e2e-'));
  const port = await freePort();
  const config = {
    ...sendConfigFile(smtp.port),
    // Readers reach the service on loopback behind a "proxy" (X-Forwarded-For names each client).
    server: { baseUrl: `http://127.0.0.1:${port}/`, trustProxy: true },
    analytics,
  };
  await writeFile(join(cwd, 'digest.config.json'), JSON.stringify(config));
  await seedPgliteDataDir(join(cwd, 'data'));
  const store = await openStore({ dataDir: join(cwd, 'data') });
  await seedEdition(store);
  await addReaders(store, READERS);
  await store.close();
  const digest = (...args: string[]) => runDigest(args, { cwd, env: { DIGEST_SECRET: SECRET } });
  return { cwd, port, digest };
}

async function serve(setup: Setup) {
  const served = await startServe({
    cwd: setup.cwd,
    site: join(setup.cwd, 'site'),
    dataDir: join(setup.cwd, 'data'),
    port: setup.port,
    secret: SECRET,
  });
  return {
    url: served.url.replace(/\/?$/, '/'),
    stderr: served.stderr,
    async stop() {
      served.child.kill('SIGTERM');
      const { code } = await served.exited;
      expect(code, served.stderr()).toBe(0);
    },
  };
}

describe.skipIf(!hasChromium)('counted links through digest serve', () => {
  let smtp: TestSmtpServer;
  let browser: Browser;
  const cwds: string[] = [];

  beforeAll(async () => {
    smtp = await startSmtpServer();
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await smtp?.close();
    for (const cwd of cwds) await rm(cwd, { recursive: true, force: true });
  });

  /** A fresh digest in this mode whose edition `digest send` mailed to the three readers (the catcher emptied first). */
  async function mailed(analytics: unknown): Promise<Setup> {
    smtp.mails.length = 0;
    const setup = await setUp(smtp, analytics);
    cwds.push(setup.cwd);
    const sent = await setup.digest('send', '--week', WEEK, '--base-url', BASE_URL);
    expect(sent.code, sent.stderr).toBe(0);
    return setup;
  }

  /** Opens the reader's received mail in Chromium and clicks two of its item links, as that reader's address. */
  async function clickFromMail(html: string, serviceUrl: string, reader: { ip: string; items: number[] }) {
    const context = await browser.newContext({ userAgent: BROWSER_AGENT });
    const landed: string[] = [];
    // The mail's links name the public address; here it is the loopback service, reached behind a "proxy". Its 302
    // is where the reader lands (recorded; no network: the item's page is a stub shown in place).
    await context.route('**/*', async (route) => {
      const request = route.request();
      if (request.url().startsWith(`${BASE_URL}r/`)) {
        const url = request.url().replace(BASE_URL, serviceUrl);
        const headers = { ...request.headers(), 'x-forwarded-for': reader.ip };
        const answer = await route.fetch({ url, maxRedirects: 0, headers });
        expect(answer.status()).toBe(302);
        landed.push(answer.headers().location ?? '');
      }
      await route.fulfill({ status: 200, contentType: 'text/html', body: '<title>item</title>' });
    });
    const page = await context.newPage();
    await page.setContent(html);
    const tokens = countedTokens(html);
    for (const index of reader.items) {
      await page.setContent(html);
      await Promise.all([
        page.waitForURL((url) => url.href.startsWith(`${BASE_URL}r/`)),
        page.locator(`a[href$="${tokens[index]}"]`).first().click(),
      ]);
    }
    await context.close();
    return landed;
  }

  it('aggregate: two readers click two items while a scanner prefetches all twelve; forged tokens go home', async () => {
    const setup = await mailed('aggregate');
    expect(smtp.mails).toHaveLength(3);
    const mails = smtp.mails.map((mail) => parseMail(mail.raw));
    const tokens = countedTokens(mails[0]!.html);
    expect(tokens).toHaveLength(12);
    // Aggregate links name no reader: every reader's mail carries the same twelve.
    for (const mail of mails) expect(countedTokens(mail.html)).toEqual(tokens);
    expect(mails[0]!.text).toContain(`${BASE_URL}r/${tokens[0]}`);
    const service = await serve(setup);
    try {
      // The gateway: every link of the mail within a second, as a browser would say it is.
      for (const token of tokens) {
        const answer = await fetch(`${service.url}r/${token}`, {
          redirect: 'manual',
          headers: { 'user-agent': BROWSER_AGENT, 'x-forwarded-for': '203.0.113.9' },
        });
        expect(answer.status).toBe(302);
        expect(answer.headers.get('location')).toMatch(/^https:\/\/(arxiv\.org|[a-z.-]+)\//);
      }
      const ada = await clickFromMail(mails[0]!.html, service.url, { ip: '198.51.100.1', items: [0, 3] });
      const bo = await clickFromMail(mails[1]!.html, service.url, { ip: '198.51.100.2', items: [0, 3] });
      expect(ada).toHaveLength(2);
      expect(bo).toEqual(ada);
      expect(ada.every((url) => !url.includes('digest.example.org'))).toBe(true);
      // Forged, truncated or hostile tokens land on the site's home, the input nowhere in the answer.
      const forged = `${tokens[0]!.slice(0, -4)}AAAA`;
      for (const bad of [
        forged,
        tokens[0]!.slice(0, 20),
        '%3Cscript%3Ealert(1)%3C%2Fscript%3E',
        'https%3A%2F%2Fevil.example',
      ]) {
        const answer = await fetch(`${service.url}r/${bad}`, { redirect: 'manual' });
        expect(answer.status).toBe(302);
        expect(answer.headers.get('location')).toBe(`http://127.0.0.1:${setup.port}/`);
        expect(await answer.text()).not.toMatch(/script|evil/);
      }
    } finally {
      await service.stop();
    }
    const store = await openStore({ dataDir: join(setup.cwd, 'data') });
    try {
      const counts = await store.clicks.byItem(WEEK);
      const clicked = counts.filter((row) => row.clicks > 0);
      expect(clicked.map((row) => row.clicks)).toEqual([2, 2]);
      expect(counts.reduce((sum, row) => sum + row.prefetched, 0)).toBe(12);
      expect(counts.reduce((sum, row) => sum + row.clicks, 0)).toBe(4);
      expect(counts.every((row) => row.uniqueReaders === null)).toBe(true);
    } finally {
      await store.close();
    }
  }, 180_000);

  it('a link once mailed works for good: with analytics switched off it still answers its item, counts nothing, logs no token', async () => {
    const setup = await mailed({ mode: 'per-reader' });
    const html = parseMail(smtp.mails.find((mail) => mail.to[0] === 'ada@example.com')!.raw).html;
    const tokens = countedTokens(html);
    expect(tokens).toHaveLength(12);
    // The reader part is sealed: nothing of the reader's number shows.
    for (const token of tokens)
      expect(token).toMatch(/^k\.[^.]+\.[^.]+\.m\.[^.]+\.[^.]+\.[A-Za-z0-9_-]{22}$/);
    const configFile = join(setup.cwd, 'digest.config.json');
    const config = JSON.parse(await readFile(configFile, 'utf8'));
    await writeFile(configFile, JSON.stringify({ ...config, analytics: 'off' }));
    const service = await serve(setup);
    const logged = () => service.stderr();
    try {
      for (const [index, token] of tokens.entries()) {
        const path = index % 2 === 0 ? `r/${token}` : `r/${token}/`;
        const method = index % 3 === 0 ? 'HEAD' : 'GET';
        const answer = await fetch(`${service.url}${path}`, { method, redirect: 'manual' });
        expect(answer.status, `${method} ${path}`).toBe(302);
        expect(answer.headers.get('location')).not.toBe(BASE_URL);
        expect(answer.headers.get('location')).toMatch(/^https:\/\//);
      }
      const posted = await fetch(`${service.url}r/${tokens[0]}`, { method: 'POST', redirect: 'manual' });
      expect(posted.status).toBe(405);
      expect((await fetch(`${service.url}r/${tokens[0]}x/more`, { redirect: 'manual' })).status).toBe(404);
    } finally {
      await service.stop();
    }
    for (const token of tokens) expect(logged()).not.toContain(token.slice(-22));
    const store = await openStore({ dataDir: join(setup.cwd, 'data') });
    try {
      expect(
        (await store.clicks.byItem(WEEK)).reduce((sum, row) => sum + row.clicks + row.prefetched, 0),
      ).toBe(0);
    } finally {
      await store.close();
    }
  }, 180_000);

  it('"off" mails the items\' own links', async () => {
    await mailed('off');
    const mail = parseMail(smtp.mails[0]!.raw);
    expect(countedTokens(mail.html)).toEqual([]);
    expect(mail.html).not.toContain('/r/');
    expect(mail.html).toContain('href="https://arxiv.org/abs/');
  }, 120_000);

  it('per-reader: which reader clicked is kept once per item, exported, and removed with the reader', async () => {
    const setup = await mailed({ mode: 'per-reader' });
    const byReader = new Map(smtp.mails.map((mail) => [mail.to[0]!, parseMail(mail.raw).html]));
    const adaTokens = countedTokens(byReader.get('ada@example.com')!);
    // Each reader's links carry their own signed part.
    expect(adaTokens[0]).not.toBe(countedTokens(byReader.get('bo@example.com')!)[0]);
    const service = await serve(setup);
    try {
      await clickFromMail(byReader.get('ada@example.com')!, service.url, {
        ip: '198.51.100.1',
        items: [1, 1, 5],
      });
    } finally {
      await service.stop();
    }
    const exported = await setup.digest('subscribers', 'export', 'ada@example.com');
    expect(exported.code, exported.stderr).toBe(0);
    const data = JSON.parse(exported.stdout);
    expect(data.clicks).toHaveLength(2);
    // Every stored choice, "count my clicks" too (on until turned off).
    expect(data.countMyClicks).toBe(true);
    expect(data.clicks[0]).toMatchObject({ edition: WEEK, revision: 1, channel: 'mail' });
    const store = await openStore({ dataDir: join(setup.cwd, 'data') });
    try {
      const counts = await store.clicks.byItem(WEEK);
      expect(counts.filter((row) => row.clicks > 0).map((row) => [row.clicks, row.uniqueReaders])).toEqual([
        [2, 1],
        [1, 1],
      ]);
    } finally {
      await store.close();
    }
    expect((await setup.digest('subscribers', 'remove', 'ada@example.com')).code).toBe(0);
    const after = await openStore({ dataDir: join(setup.cwd, 'data') });
    try {
      expect((await after.clicks.byItem(WEEK)).every((row) => row.uniqueReaders === null)).toBe(true);
    } finally {
      await after.close();
    }
  }, 180_000);

  it('per-reader: the preferences page states it and "Count my clicks" turned off keeps no reader rows', async () => {
    const setup = await mailed({ mode: 'per-reader' });
    const html = parseMail(smtp.mails.find((mail) => mail.to[0] === 'bo@example.com')!.raw).html;
    const token = /href="https:\/\/digest\.example\.org\/preferences\?token=([^"&]+)"/.exec(html)?.[1];
    expect(token).toBeDefined();
    const service = await serve(setup);
    const proxy = { 'x-forwarded-for': '198.51.100.7' };
    try {
      const page = await (await fetch(`${service.url}preferences?token=${token}`, { headers: proxy })).text();
      expect(page).toContain('counted per reader; you can turn that off on your preferences page.');
      expect(page).toMatch(/name="countMyClicks" value="1" checked> Count my clicks/);
      // The page's own form, unticked: the existing signed POST (token in the body, same Origin only).
      const form = new URLSearchParams({ token: decodeURIComponent(token!), clicksOffered: '1' });
      const post = (origin: string) =>
        fetch(`${service.url}preferences`, {
          method: 'POST',
          headers: { ...proxy, origin, 'content-type': 'application/x-www-form-urlencoded' },
          body: form,
          redirect: 'manual',
        });
      expect((await post('https://evil.example')).status).toBe(403);
      const saved = await post(new URL(service.url).origin);
      expect(saved.status).toBe(200);
      const after = await saved.text();
      expect(after).toContain('role="status"');
      expect(after).toMatch(/name="countMyClicks" value="1"> Count my clicks/);
      // Bo clicks two items from the mail: counted, but not as Bo.
      for (const item of countedTokens(html).slice(0, 2)) {
        const answer = await fetch(`${service.url}r/${item}`, {
          headers: { ...proxy, 'user-agent': BROWSER_AGENT },
          redirect: 'manual',
        });
        expect(answer.status).toBe(302);
      }
    } finally {
      await service.stop();
    }
    const exported = await setup.digest('subscribers', 'export', 'bo@example.com');
    expect(exported.code, exported.stderr).toBe(0);
    expect(JSON.parse(exported.stdout)).toMatchObject({ clicks: [], countMyClicks: false });
    const store = await openStore({ dataDir: join(setup.cwd, 'data') });
    try {
      const counted = (await store.clicks.byItem(WEEK)).filter((row) => row.clicks > 0);
      expect(counted).toHaveLength(2);
      expect(counted.map((row) => row.uniqueReaders ?? 0)).toEqual([0, 0]);
    } finally {
      await store.close();
    }
  }, 180_000);

  it('analytics.site: an item link of the published edition page is counted through /r/ of digest serve', async () => {
    const setup = await setUp(smtp, { mode: 'aggregate', site: true });
    cwds.push(setup.cwd);
    const published = await setup.digest('publish', '--week', WEEK, '--base-url', BASE_URL, '--out', 'site');
    expect(published.code, published.stderr).toBe(0);
    const service = await serve(setup);
    try {
      const page = await (await fetch(`${service.url}${WEEK}/index.html`)).text();
      const links = [...page.matchAll(/href="(http:\/\/127\.0\.0\.1:\d+\/r\/[^"]+)"/g)].map((m) => m[1]!);
      expect(links.length).toBeGreaterThan(2);
      const answer = await fetch(links[0]!, {
        headers: { 'user-agent': BROWSER_AGENT, 'x-forwarded-for': '198.51.100.9' },
        redirect: 'manual',
      });
      expect(answer.status).toBe(302);
      expect(answer.headers.get('location')).toMatch(/^https:\/\/(?!127\.0\.0\.1)/);
    } finally {
      await service.stop();
    }
    const store = await openStore({ dataDir: join(setup.cwd, 'data') });
    try {
      const counted = (await store.clicks.byItem(WEEK)).filter((row) => row.clicks > 0);
      expect(counted.map((row) => row.clicks)).toEqual([1]);
    } finally {
      await store.close();
    }
  }, 180_000);
});
