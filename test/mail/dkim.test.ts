// DKIM: every mail is signed (relaxed/relaxed, rsa-sha256) over the headers including both List-Unsubscribe
// headers; the signature is verified here with the public key, as a receiving server would.
import { createHash, generateKeyPairSync, verify } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useTestStore } from '../support/database.js';
import { addReaders, seedEdition, testDigest, WEEK } from '../support/send-digest.js';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.js';

const DKIM = { domainName: 'example.org', keySelector: 'digest', privateKeyEnv: 'TEST_DKIM_KEY' };

function relaxedBody(body: string): string {
  const lines = body.split('\r\n').map((line) => line.replace(/[ \t]+/g, ' ').replace(/ $/, ''));
  while (lines.length && lines.at(-1) === '') lines.pop();
  return lines.length ? `${lines.join('\r\n')}\r\n` : '';
}

function relaxedHeader(name: string, value: string): string {
  return `${name.toLowerCase()}:${value
    .replace(/\r\n/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim()}`;
}

/** Verifies the DKIM-Signature of a raw message against a public key; returns its tags. */
function checkDkim(raw: string, publicKey: string) {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split);
  const body = raw.slice(split + 4);
  const fields = head.split(/\r\n(?![ \t])/).map((field) => {
    const colon = field.indexOf(':');
    return { name: field.slice(0, colon), value: field.slice(colon + 1) };
  });
  const signature = fields.find((field) => field.name.toLowerCase() === 'dkim-signature')!;
  const tags = Object.fromEntries(
    signature.value
      .replace(/\s+/g, '')
      .split(';')
      .filter(Boolean)
      .map((tag) => [tag.slice(0, tag.indexOf('=')), tag.slice(tag.indexOf('=') + 1)]),
  ) as Record<string, string>;
  const bodyHash = createHash('sha256').update(relaxedBody(body)).digest('base64');
  const used = new Set<number>();
  const signed = tags.h!.split(':').map((name) => {
    // The last unused instance of each named header, as RFC 6376 §5.4.2 says.
    for (let index = fields.length - 1; index >= 0; index--) {
      if (!used.has(index) && fields[index]!.name.toLowerCase() === name.toLowerCase()) {
        used.add(index);
        return relaxedHeader(name, fields[index]!.value);
      }
    }
    return null;
  });
  const unsigned = relaxedHeader('dkim-signature', signature.value.replace(/\bb=[^;]*$/, 'b='));
  const data = `${signed.filter((line) => line !== null).join('\r\n')}\r\n${unsigned}`;
  const valid = verify('sha256', Buffer.from(data), publicKey, Buffer.from(tags.b!, 'base64'));
  return { tags, bodyHashMatches: bodyHash === tags.bh, valid };
}

describe('DKIM signing of sent mails', () => {
  const getStore = useTestStore('pglite');
  let smtp: TestSmtpServer;
  beforeEach(async () => {
    smtp = await startSmtpServer();
  });
  afterEach(() => smtp.close());

  it('signs each mail, List-Unsubscribe and List-Unsubscribe-Post included, verifiable with the public key', async () => {
    const store = getStore();
    await seedEdition(store);
    await addReaders(store, ['ada@example.com']);
    const { privateKey, publicKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const digest = testDigest(store, smtp.port, {}, { dkim: DKIM, env: { TEST_DKIM_KEY: privateKey } });
    expect((await digest.send({ week: WEEK })).run.sent).toBe(1);
    const { tags, bodyHashMatches, valid } = checkDkim(smtp.mails[0]!.raw, publicKey);
    expect(tags).toMatchObject({ d: 'example.org', s: 'digest', a: 'rsa-sha256', c: 'relaxed/relaxed' });
    expect(tags.h!.toLowerCase().split(':')).toEqual(
      expect.arrayContaining(['from', 'to', 'subject', 'list-unsubscribe', 'list-unsubscribe-post']),
    );
    expect(bodyHashMatches).toBe(true);
    expect(valid).toBe(true);
    // A changed List-Unsubscribe header breaks the signature.
    const tampered = smtp.mails[0]!.raw.replace('unsubscribe?token=', 'unsubscribe?token=x');
    expect(checkDkim(tampered, publicKey).valid).toBe(false);
  });

  it('refuses to send without the key, naming the variable', async () => {
    const store = getStore();
    await seedEdition(store);
    await addReaders(store, ['ada@example.com']);
    const digest = testDigest(store, smtp.port, {}, { dkim: DKIM });
    await expect(digest.send({ week: WEEK })).rejects.toThrow(/TEST_DKIM_KEY/);
    expect(smtp.mails).toHaveLength(0);
  });
});
