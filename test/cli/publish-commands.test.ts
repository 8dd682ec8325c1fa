// `digest publish` and `digest email` end to end on a real PGlite store in a temp folder and a loopback SMTP server.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register as registerEmail } from '../../src/cli/commands/email-command.js';
import { register as registerPublish } from '../../src/cli/commands/publish-command.js';
import type { CliContext } from '../../src/cli/context.js';
import { openStore } from '../../src/store/open-store.js';
import { createClickTokens } from '../../src/subscribers/click-tokens.js';
import { referenceEdition } from '../support/reference-edition.js';

async function run(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  let stdout = '';
  let stderr = '';
  const out = new PassThrough().on('data', (chunk) => (stdout += chunk));
  const err = new PassThrough().on('data', (chunk) => (stderr += chunk));
  const context: CliContext = { stdout: out, stderr: err, cwd, env };
  const program = new Command().exitOverride();
  registerPublish(program, context);
  registerEmail(program, context);
  let error: unknown = null;
  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (caught) {
    error = caught;
  }
  return { stdout, stderr, error };
}

async function snapshot(dir: string): Promise<Map<string, Buffer>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
  return new Map(
    await Promise.all(files.map(async (file) => [relative(dir, file), await readFile(file)] as const)),
  );
}

describe('digest publish / digest email', () => {
  let cwd: string;
  let smtp: SMTPServer;
  const received: { to: string[]; data: string }[] = [];

  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), 'digest-cli-publish-'));
    const store = await openStore({ dataDir: join(cwd, 'data') });
    try {
      await store.editions.save({ ...referenceEdition(), date: '2026-04-27', title: 'The week before' });
      await store.editions.markPublished('2026-04-27', '2026-04-27T10:00:00.000Z');
      await store.editions.save({
        ...referenceEdition(),
        date: '2026-04-20',
        title: 'A draft never published',
      });
      await store.editions.save(referenceEdition());
    } finally {
      await store.close();
    }
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((address) => address.address), data });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    await writeFile(
      join(cwd, 'digest.config.json'),
      JSON.stringify({
        publish: {
          email: {
            from: 'LLM News Digest <digest@example.org>',
            to: ['list@example.org'],
            smtp: { host: '127.0.0.1', port, requireTls: false },
          },
        },
      }),
    );
  }, 60_000);

  afterAll(async () => {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await rm(cwd, { recursive: true, force: true });
  });

  it('publish needs a base URL and says how to give one', async () => {
    const result = await run(cwd, ['publish', '--week', '2026-05-04']);
    expect(String(result.error)).toMatch(/--base-url/);
  });

  it('publish marks the edition published, writes the whole site, and a rerun gives the same bytes', async () => {
    const args = ['publish', '--week', '2026-05-04', '--base-url', 'https://digest.example.org/'];
    const first = await run(cwd, args);
    expect(first.error).toBeNull();
    expect(first.stdout.trim()).toBe(join(cwd, 'out', '2026-05-04', 'index.html'));
    const out = join(cwd, 'out');
    const files = await snapshot(out);
    for (const file of [
      'index.html',
      'feed.xml',
      'atom.xml',
      'feed.json',
      'sitemap.xml',
      'robots.txt',
      '404.html',
    ]) {
      expect(files.has(file), file).toBe(true);
    }
    for (const file of [
      'index.html',
      'edition.json',
      'edition.md',
      'email.html',
      'email.txt',
      'edition.eml',
    ]) {
      expect(files.has(join('2026-05-04', file)), file).toBe(true);
    }
    expect(files.has(join('2026-04-27', 'index.html'))).toBe(true);
    expect(files.has(join('2026-04-20', 'index.html'))).toBe(false); // drafts stay off the public site
    const edition = JSON.parse(files.get(join('2026-05-04', 'edition.json'))!.toString('utf8'));
    expect(edition.publishedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const feed = JSON.parse(files.get('feed.json')!.toString('utf8'));
    expect(feed.items.map((item: { title: string }) => item.title)).toEqual([
      referenceEdition().title,
      'The week before',
    ]);

    const second = await run(cwd, args);
    expect(second.error).toBeNull();
    expect(second.stderr).toMatch(/Already published/);
    expect(await snapshot(out)).toEqual(files);

    const store = await openStore({ dataDir: join(cwd, 'data') });
    try {
      expect((await store.editions.get('2026-05-04'))?.publishedAt).toBe(edition.publishedAt);
    } finally {
      await store.close();
    }
  }, 60_000);

  it('email writes email.html, email.txt and edition.eml, and --send delivers it over SMTP', async () => {
    const result = await run(cwd, [
      'email',
      '--week',
      '2026-05-04',
      '--out',
      'mail',
      '--send',
      '--to',
      'a@example.org',
    ]);
    expect(result.error).toBeNull();
    const eml = await readFile(join(cwd, 'mail', '2026-05-04', 'edition.eml'), 'utf8');
    expect(result.stdout.trim()).toBe(join(cwd, 'mail', '2026-05-04', 'edition.eml'));
    expect(eml).toMatch(/^List-Unsubscribe:/m);
    expect(await readFile(join(cwd, 'mail', '2026-05-04', 'email.txt'), 'utf8')).toContain(
      referenceEdition().items[0]!.title,
    );
    expect(received).toHaveLength(1);
    expect(received[0]!.to).toEqual(['a@example.org']);
    expect(received[0]!.data.replace(/\r\n$/, '')).toBe(eml.replace(/\r\n$/, ''));
  }, 60_000);

  it('email writes to drafts/ by default and never into the published site', async () => {
    const site = await snapshot(join(cwd, 'out'));
    const refused = await run(cwd, ['email', '--week', '2026-05-04', '--out', 'out']);
    expect(String(refused.error)).toMatch(/--out .*out: is in the published site/);
    // A folder in it — the published week's own, or one not made yet — is the live site too.
    for (const out of ['out/2026-05-04', 'out/leak', './out/../out/2026-04-27/mail']) {
      const inside = await run(cwd, ['email', '--week', '2026-05-04', '--out', out]);
      expect(String(inside.error), out).toMatch(/is in the published site/);
    }
    expect(await snapshot(join(cwd, 'out'))).toEqual(site);
    const drafted = await run(cwd, ['email', '--week', '2026-05-04']);
    expect(drafted.error).toBeNull();
    expect(drafted.stdout.trim()).toBe(join(cwd, 'drafts', '2026-05-04', 'edition.eml'));
  }, 60_000);

  it('email reports a week with no edition', async () => {
    const result = await run(cwd, ['email', '--week', '2026-01-05']);
    expect(String(result.error)).toMatch(/no edition for 2026-01-05.*digest build --week 2026-01-05/);
  }, 60_000);
});

describe('counted links in digest email and on the site', () => {
  const SECRET = 'a-test-secret-of-at-least-32-bytes-long!';
  let cwd: string;

  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), 'digest-cli-email-clicks-'));
    const store = await openStore({ dataDir: join(cwd, 'data') });
    try {
      await store.editions.save(referenceEdition());
    } finally {
      await store.close();
    }
  }, 60_000);
  afterAll(async () => {
    await rm(cwd, { recursive: true, force: true });
  });

  async function configure(analytics: unknown): Promise<void> {
    await writeFile(
      join(cwd, 'digest.config.json'),
      JSON.stringify({
        analytics,
        server: { baseUrl: 'https://service.example.org/' },
        publish: {
          baseUrl: 'https://digest.example.org/',
          email: { from: 'Digest <d@example.org>', to: [] },
        },
      }),
    );
  }
  const countedTokens = (html: string) =>
    [...html.matchAll(/href="https:\/\/service\.example\.org\/r\/([^"]+)"/g)].map((m) => m[1]!);
  const linkedItems = () => referenceEdition().items.filter((item) => item.url);
  /** One signed /r/ token per linked item, each naming this edition's first revision, the channel and no reader. */
  function expectCounted(html: string, channel: 'mail' | 'site'): string[] {
    const tokens = countedTokens(html);
    expect(new Set(tokens).size).toBe(linkedItems().length);
    const read = createClickTokens(Buffer.from(SECRET)).read;
    for (const token of tokens) {
      expect(read(token)).toMatchObject({ edition: '2026-05-04', revision: 1, channel, subscriberId: null });
    }
    return tokens;
  }

  /** The list mail `digest email` writes in this analytics mode. */
  async function listMail(analytics: string): Promise<{ html: string; text: string }> {
    await configure(analytics);
    const result = await run(cwd, ['email', '--week', '2026-05-04', '--out', analytics], {
      DIGEST_SECRET: SECRET,
    });
    expect(result.error).toBeNull();
    const read = (file: string) => readFile(join(cwd, analytics, '2026-05-04', file), 'utf8');
    return { html: await read('email.html'), text: await read('email.txt') };
  }

  /** The edition page `digest publish` writes with this analytics setting. */
  async function editionPage(analytics: unknown, out: string): Promise<string> {
    await configure(analytics);
    const result = await run(cwd, ['publish', '--week', '2026-05-04', '--out', out], {
      DIGEST_SECRET: SECRET,
    });
    expect(result.error).toBeNull();
    return readFile(join(cwd, out, '2026-05-04', 'index.html'), 'utf8');
  }

  it('digest email, aggregate: each item links through /r/ on the service, channel mail, no reader part', async () => {
    const { html, text } = await listMail('aggregate');
    const tokens = expectCounted(html, 'mail');
    expect(text).toContain(`https://service.example.org/r/${tokens[0]}`);
    expect(html).not.toContain(`href="${linkedItems()[0]!.url}"`);
  }, 60_000);

  it("digest email, off: the items' own links", async () => {
    const { html } = await listMail('off');
    expect(html).not.toContain('/r/');
    expect(html).toContain(`href="${linkedItems()[0]!.url}"`);
  }, 60_000);

  it('analytics.site: the edition page links each item through /r/, channel site, no reader part', async () => {
    const page = await editionPage({ mode: 'aggregate', site: true }, 'site-counted');
    expectCounted(page, 'site');
    expect(page).not.toContain(`href="${linkedItems()[0]!.url}"`);
  }, 60_000);

  it("site off (the default) or mode off: the edition page keeps the items' own links", async () => {
    for (const [analytics, out] of [
      [{ mode: 'aggregate' }, 'site-default'],
      [{ mode: 'off', site: true }, 'site-off'],
    ] as const) {
      const page = await editionPage(analytics, out);
      expect(countedTokens(page)).toEqual([]);
      expect(page).not.toContain('/r/');
      expect(page).toContain(`href="${linkedItems()[0]!.url}"`);
    }
  }, 60_000);
});
