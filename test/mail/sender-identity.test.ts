// Who sends it (publish.identity), through the real mails on a loopback SMTP server: the confirmation mail of an
// imported reader, the edition sent to readers, and a correction notice each carry the postal address, the footer
// and the Reply-To, with the identity's name as the From display name; the config refuses a bad field by name.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDigest, type Digest } from '../../src/compose/create-digest.js';
import { parseConfig } from '../../src/config/load-config.js';
import { ConfigError } from '../../src/core/errors.js';
import { silentLogger } from '../../src/core/ports.js';
import { systemClock } from '../../src/deps.js';
import { withReplyTo } from '../../src/mail/smtp-sender.js';
import { createHttpClient } from '../../src/net/http-client.js';
import { renderEmail } from '../../src/publish/email-files.js';
import { senderIdentity } from '../../src/publish/sender-identity.js';
import { renderSubscriberPage } from '../../src/publish/subscriber-pages.js';
import { nodeFileSystem } from '../../src/publish/write-site.js';
import { useTestStore } from '../support/database.js';
import { referenceEdition } from '../support/reference-edition.js';
import { addReaders, SECRET, seedEdition, sendConfigFile, WEEK } from '../support/send-digest.js';
import { parseMail, startSmtpServer, type TestSmtpServer } from '../support/smtp-server.js';

const IDENTITY = {
  name: 'Ada’s <AI> Weekly',
  postalAddress: 'Ada Lovelace Ltd\n12 St James’s Square\nLondon SW1Y 4JH',
  replyTo: 'editor@example.org',
  footer: 'You get this because you asked for it & we keep it short.',
  accentColor: '#1f5fa8',
  logoUrl: 'https://digest.example.org/logo.png',
};

function configWith(port: number, identity: Record<string, unknown> = IDENTITY) {
  const file = sendConfigFile(port);
  return parseConfig({ ...file, publish: { ...file.publish, identity } });
}

function refusal(identity: Record<string, unknown>): ConfigError {
  try {
    configWith(25, identity);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('the config was accepted');
}

describe('publish.identity in the config', () => {
  it('refuses each bad field by name: a pale colour, a non-hex colour, an http logo, a bad Reply-To, two lines', () => {
    expect(refusal({ accentColor: '#ffcc00' }).issues).toEqual([
      {
        path: 'publish.identity.accentColor',
        message: expect.stringMatching(/contrast 1\.\d+:1 on the mail's background/),
      },
    ]);
    expect(refusal({ accentColor: 'red;background:url(x)' }).issues[0]?.path).toBe(
      'publish.identity.accentColor',
    );
    // 4.88:1 on white, 4.31:1 on the mail's grey around its cards, where the masthead link sits: refused.
    expect(refusal({ accentColor: '#2f6fd0' }).issues[0]?.message).toMatch(/contrast 4\.31:1/);
    expect(refusal({ logoUrl: 'http://digest.example.org/logo.png' }).issues).toEqual([
      { path: 'publish.identity.logoUrl', message: 'must be an https URL' },
    ]);
    expect(refusal({ replyTo: 'not an address' }).issues[0]?.path).toBe('publish.identity.replyTo');
    expect(refusal({ name: 'A\r\nBcc: x@example.com' }).issues[0]?.path).toBe('publish.identity.name');
    expect(refusal({ postal: 'x' }).issues[0]?.message).toMatch(/unknown field/);
  });

  it('puts the name in place of the digest name and as the From display name', () => {
    const config = configWith(25);
    expect(config.name).toBe(IDENTITY.name);
    expect(config.publish.email.from).toBe('"Ada’s <AI> Weekly" <digest@example.org>');
  });

  it('adds Reply-To once, in the header block only', () => {
    const raw = 'From: a@example.org\r\nSubject: x\r\n\r\nReply-To: in the body\r\n';
    expect(withReplyTo(raw, 'editor@example.org')).toBe(`Reply-To: editor@example.org\r\n${raw}`);
    const own = 'Reply-To: own@example.org\r\nSubject: x\r\n\r\nbody';
    expect(withReplyTo(own, 'editor@example.org')).toBe(own);
  });

  it('the edition files carry the footer, postal address, accent and logo, escaped', async () => {
    const config = configWith(25);
    const email = await renderEmail(referenceEdition(), {
      email: config.publish.email,
      baseUrl: 'https://digest.example.org/',
      sender: senderIdentity(config.publish.identity),
    });
    expect(email.text).toContain('You get this because you asked for it & we keep it short.\n');
    expect(email.text).toContain('12 St James’s Square\nLondon SW1Y 4JH\n');
    expect(email.html).toContain('you asked for it &amp; we keep it short.');
    expect(email.html).toContain('Ada Lovelace Ltd<br>12 St James’s Square');
    expect(email.html).toContain('color:#1f5fa8');
    expect(email.html).toContain('src="https://digest.example.org/logo.png"');
    expect(email.eml).toMatch(/^From: .*digest@example\.org/m);
  });
});

describe('the subscriber pages say who sends it', () => {
  it('the check-your-inbox page carries the footer and the postal address, escaped, without inline style', () => {
    const sender = senderIdentity(configWith(25).publish.identity);
    const page = renderSubscriberPage(
      { kind: 'check-inbox' },
      { root: 'https://digest.example.org/', sender },
    );
    expect(page).toContain(
      '<p class="sender">You get this because you asked for it &amp; we keep it short.<br>',
    );
    expect(page).toContain('Ada Lovelace Ltd<br>12 St James’s Square<br>London SW1Y 4JH');
    expect(page).toContain('<title>Check your inbox');
  });
});

describe('every mail says who sends it', () => {
  const store = useTestStore();
  let smtp: TestSmtpServer;
  let digest: Digest;
  let outDir: string;

  beforeEach(async () => {
    smtp = await startSmtpServer();
    outDir = await mkdtemp(join(tmpdir(), 'digest-identity-'));
    digest = createDigest({
      config: configWith(smtp.port),
      store: store(),
      http: createHttpClient({ timeoutMs: 1000, maxBytes: 1024, retries: 0 }),
      clock: systemClock,
      log: silentLogger,
      fs: nodeFileSystem,
      env: { DIGEST_SECRET: SECRET },
    });
  });
  afterEach(async () => {
    await digest.subscriptions.stopOutbox();
    await smtp.close();
    await rm(outDir, { recursive: true, force: true });
  });

  function expectIdentity(raw: string): void {
    const mail = parseMail(raw);
    expect(mail.headers.get('reply-to')).toEqual(['editor@example.org']);
    expect(mail.headers.get('from')?.[0]).toMatch(/digest@example\.org/);
    expect(mail.text).toContain('Ada Lovelace Ltd');
    expect(mail.text).toContain('London SW1Y 4JH');
    expect(mail.text).toContain('we keep it short.');
    expect(mail.html).toContain('Ada Lovelace Ltd<br>12 St James’s Square');
  }

  it('the confirmation mail of an imported reader', async () => {
    const report = await digest.subscribers.import({ csv: 'email\nnew@example.com\n', consentBy: null });
    expect(report).toMatchObject({ added: 1, mailed: 1 });
    await digest.subscriptions.startOutbox();
    await digest.subscriptions.idle();
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0]!.to).toEqual(['new@example.com']);
    expectIdentity(smtp.mails[0]!.raw);
  });

  it('the edition sent to readers, and its correction notice', async () => {
    await seedEdition(store());
    await addReaders(store(), ['ada@example.com']);
    await digest.send({ week: WEEK });
    expect(smtp.mails).toHaveLength(1);
    expectIdentity(smtp.mails[0]!.raw);
    const draft = await digest.correctionDraft(WEEK);
    draft.items[0]!.summary = 'A corrected summary of the first item, long enough to stand as one.';
    await digest.correct({
      week: WEEK,
      reason: 'A number was wrong',
      editor: 'ed@example.org',
      corrected: draft,
      outDir,
    });
    await digest.send({ week: WEEK, correction: true });
    expect(smtp.mails).toHaveLength(2);
    expect(parseMail(smtp.mails[1]!.raw).text).toContain('What changed: A number was wrong');
    expectIdentity(smtp.mails[1]!.raw);
  });
});
