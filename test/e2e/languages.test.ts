// An edition in two languages, end to end: the real CLI builds with a loopback fake OpenAI server (which also
// translates), publishes both languages linked by hreflang, and `digest send` mails a reader who chose German and
// two topics a German mail with their topics first (a real SMTP server on loopback, parsed with mailparser).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Edition } from '../../src/core/types.js';
import { itemTopics, TOPIC_NAMES } from '../../src/select/topic-match.js';
import { openStore } from '../../src/store/open-store.js';
import { missingSpans, protectedSpans } from '../../src/write/translation-check.js';
import { runDigest } from '../support/cli.js';
import { type FakeLlm, startFakeLlm } from '../support/fake-llm.js';
import { readFixture } from '../support/fixtures.js';
import { type LoopbackServer, startLoopback } from '../support/loopback.js';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.js';

const WEEK = '2026-06-22';
const BASE = 'https://digest.example.org/';

describe('an edition in two languages', () => {
  let feeds: LoopbackServer;
  let fake: FakeLlm;
  let smtp: TestSmtpServer;
  let cwd: string;
  let env: NodeJS.ProcessEnv;
  const read = (...path: string[]) => readFileSync(join(cwd, 'out', ...path), 'utf8');

  beforeAll(async () => {
    const feed = readFixture('real', 'simonwillison', 'atom_everything_2026-06-25.xml');
    feeds = await startLoopback((_, response) => {
      response.writeHead(200, { 'content-type': 'application/atom+xml' }).end(feed);
    });
    fake = await startFakeLlm();
    smtp = await startSmtpServer();
    cwd = mkdtempSync(join(tmpdir(), 'digest-languages-'));
    env = {
      OPENAI_API_KEY: 'test-key',
      OPENAI_BASE_URL: fake.baseURL,
      DIGEST_SECRET: 'a-test-secret-of-at-least-32-bytes-long!',
    };
    writeFileSync(
      join(cwd, 'digest.config.json'),
      JSON.stringify({
        itemsPerEdition: 4,
        languages: ['en', 'de'],
        sources: [{ id: 'rss-willison', type: 'feed', url: feeds.url('/feed.xml') }],
        llm: { write: 'openai:gpt-4.1-mini' },
        enrich: { enabled: false },
        publish: {
          baseUrl: BASE,
          email: {
            from: 'LLM News Digest <digest@example.org>',
            smtp: { host: '127.0.0.1', port: smtp.port, requireTls: false },
          },
        },
      }),
    );
  });
  afterAll(async () => {
    await Promise.all([feeds.close(), fake.close(), smtp.close()]);
    rmSync(cwd, { recursive: true, force: true });
  });

  it('builds, translates and publishes both languages, linked by hreflang, names and numbers verbatim', async () => {
    const build = await runDigest(['build', '--week', WEEK, '--no-enrich'], { cwd, env });
    expect(build.code, build.stderr).toBe(0);
    expect(build.stderr).toContain('› translate into de');
    expect(fake.count('translate')).toBe(5);

    const published = await runDigest(['publish', '--week', WEEK, '--allow-flagged'], { cwd, env });
    expect(published.code, published.stderr).toBe(0);
    const english = JSON.parse(read(WEEK, 'edition.json')) as Edition;
    const german = JSON.parse(read('de', WEEK, 'edition.json')) as Edition;
    expect(german.title).toMatch(/^\[de\] /);
    expect(german.items.map((item) => item.key)).toEqual(english.items.map((item) => item.key));
    let kept = 0;
    english.items.forEach((item, index) => {
      const translated = german.items[index]!;
      expect(translated.summary).not.toBe(item.summary);
      expect(missingSpans(item.summary, translated.summary)).toEqual([]);
      kept += protectedSpans(item.summary).length;
    });
    expect(kept).toBeGreaterThan(0);

    const page = read(WEEK, 'index.html');
    const pageDe = read('de', WEEK, 'index.html');
    expect(page).toContain('<html lang="en">');
    expect(pageDe).toContain('<html lang="de">');
    for (const html of [page, pageDe]) {
      expect(html).toContain(`<link rel="alternate" hreflang="en" href="${BASE}${WEEK}/">`);
      expect(html).toContain(`<link rel="alternate" hreflang="de" href="${BASE}de/${WEEK}/">`);
      expect(html).toContain(`<link rel="alternate" hreflang="x-default" href="${BASE}${WEEK}/">`);
    }
    expect(pageDe).toContain(`<link rel="canonical" href="${BASE}de/${WEEK}/">`);
    expect(pageDe).toContain('[de] ');
    expect(read('de', 'feed.xml')).toContain(`${BASE}de/${WEEK}/`);
    expect(read('de', 'search-index.json')).toContain('[de]');
    expect(existsSync(join(cwd, 'out', 'de', 'search', 'index.html'))).toBe(true);
    expect(read('sitemap.xml')).toContain(`<loc>${BASE}de/${WEEK}/</loc>`);
    const mailDe = read('de', WEEK, 'email.html');
    expect(mailDe).toContain('lang="de"');
    expect(mailDe).toContain('Das Wichtigste');
    expect(mailDe).toContain(`${BASE}de/${WEEK}/`);
  }, 180_000);

  it('mails a reader who chose German and two topics the German edition, their topics first', async () => {
    const added = await runDigest(['subscribers', 'add', 'leser@example.com', '--confirmed'], { cwd, env });
    expect(added.code, added.stderr).toBe(0);
    const german = JSON.parse(read('de', WEEK, 'edition.json')) as Edition;
    const english = JSON.parse(read(WEEK, 'edition.json')) as Edition;
    // Two topics the first item is not about, at least one carried by a later item: "first" moves that one up.
    const firstItemTopics = itemTopics(english.items[0]!);
    const carried = english.items.slice(1).flatMap(itemTopics);
    const topics = [...new Set([...carried, ...TOPIC_NAMES])]
      .filter((topic) => !firstItemTopics.includes(topic))
      .slice(0, 2);
    expect(carried).toContain(topics[0]);
    const store = await openStore({ dataDir: join(cwd, 'data') });
    try {
      const reader = (await store.subscribers.get({ address: 'leser@example.com' }))!;
      await store.preferences.set(reader.id, { language: 'de', topics, levels: [], onlyMyTopics: false });
    } finally {
      await store.close();
    }
    const sent = await runDigest(['send', '--week', WEEK, '--allow-flagged'], { cwd, env });
    expect(sent.code, sent.stderr).toBe(0);
    expect(smtp.mails).toHaveLength(1);
    const mail = await simpleParser(smtp.mails[0]!.raw);
    expect(mail.subject).toContain(german.title);
    expect(mail.subject).toMatch(/Juni 2026/);
    expect(mail.html).toContain('lang="de"');
    expect(mail.text).toContain('Das Wichtigste:');
    expect(mail.text).toContain(`Im Web lesen: ${BASE}de/${WEEK}/`);
    expect(mail.text).toContain('Themen und Sprache wählen: https://digest.example.org/preferences?token=');
    const mine = english.items
      .map((item, index) => ({ index, topics: itemTopics(item) }))
      .filter((entry) => entry.topics.some((topic) => topics.includes(topic)))
      .map((entry) => entry.index);
    const order = [
      ...mine,
      ...english.items.map((_, index) => index).filter((index) => !mine.includes(index)),
    ];
    const text = mail.text ?? '';
    const positions = order.map((index) => text.indexOf(german.items[index]!.summary.slice(0, 30)));
    expect(positions.every((position) => position > 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(mine[0]).toBeGreaterThan(0);

    // The reader's data leaves with them: exported (preferences and send log included), then deleted.
    const exported = await runDigest(['subscribers', 'export', 'leser@example.com'], { cwd, env });
    expect(exported.code, exported.stderr).toBe(0);
    expect(JSON.parse(exported.stdout)).toMatchObject({
      subscriber: { address: 'leser@example.com', status: 'confirmed' },
      preferences: { language: 'de', topics },
      sendLog: [{ edition: WEEK, state: 'sent' }],
    });
    expect((await runDigest(['subscribers', 'delete', 'leser@example.com'], { cwd, env })).code).toBe(0);
    const gone = await runDigest(['subscribers', 'export', 'leser@example.com'], { cwd, env });
    expect(gone.code).toBe(2);
    expect(gone.stderr).toMatch(/No subscriber "leser@example.com"/);
  }, 180_000);

  it('offline, only the written language is published, and the build and publish say so', async () => {
    const offline = await runDigest(['build', '--week', WEEK, '--offline', '--no-ingest', '--no-enrich'], {
      cwd,
      env,
    });
    expect(offline.code, offline.stderr).toBe(0);
    expect(offline.stderr).toMatch(/Languages: only en is published; translating to de needs a model/);
  }, 120_000);
});
