import type { AddressInfo } from 'node:net';
import { parseHTML } from 'linkedom';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendEditionEml } from '../../src/editions/publish-and-email.js';
import { createSmtpSender } from '../../src/mail/smtp-sender.js';
import { renderEmail } from '../../src/publish/email-files.js';
import { referenceEdition } from '../support/reference-edition.js';
import { publishedImages } from './_images.js';
import { largeEdition } from './_large-edition.js';
import { liveMarkup, xssEdition } from './_xss-edition.js';

const OPTIONS = {
  baseUrl: 'https://digest.example.org/',
  email: {
    from: 'LLM News Digest <digest@example.org>',
    to: ['readers@example.org'],
    unsubscribeUrl: 'https://example.com/unsubscribe?token={{unsubscribe_token}}',
  },
};

/** Headers of an RFC 5322 message, unfolded, keyed by lower-case name. */
function headersOf(message: string): Map<string, string> {
  const head = message.slice(0, message.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
  return new Map(
    head.split('\r\n').map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()] as const;
    }),
  );
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body
    .replace(/=\r\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

describe('email', async () => {
  const edition = referenceEdition();
  const images = publishedImages([edition]);
  const email = await renderEmail(edition, { ...OPTIONS, images });

  it('HTML: under 90 KB, every item, images with alt text and fixed width, styles inlined', () => {
    expect(Buffer.byteLength(email.html)).toBeLessThanOrEqual(90 * 1024);
    const { document } = parseHTML(email.html);
    const text = document.body.textContent ?? '';
    for (const item of edition.items) {
      expect(text).toContain(item.title);
      expect(text).toContain(item.summary);
    }
    const shown = Array.from(document.querySelectorAll('img'));
    expect(shown).toHaveLength(edition.items.filter((item) => item.image).length);
    for (const image of shown) {
      // Absolute URLs of the site's own copies: mail clients never call the original image host.
      expect(image.getAttribute('src')).toMatch(/^https:\/\/digest\.example\.org\/img\/[0-9a-f]{24}\.png$/);
      expect(image.getAttribute('alt')).toBeTruthy();
      expect(image.getAttribute('width')).toBe('528');
    }
    // MJML inlined the classes' rules: title links carry their colour in a style attribute.
    const titleLink = document.querySelector('h2 a');
    expect(titleLink?.getAttribute('style')).toContain('color: #0b57b0');
    expect(document.querySelector('meta[name="color-scheme"]')).not.toBeNull();
    expect(email.html).toContain('prefers-color-scheme: dark');
    expect(document.querySelector('a[href="https://digest.example.org/2026-05-04/"]')?.textContent).toBe(
      'View in your browser',
    );
  });

  it('HTML without a base URL shows no image at all (an email cannot load a relative one)', async () => {
    const { document } = parseHTML((await renderEmail(edition, { email: OPTIONS.email, images })).html);
    expect(document.querySelectorAll('img')).toHaveLength(0);
  });

  it('stays under 90 KB for an author-heavy edition too', async () => {
    const large = await renderEmail(largeEdition(), {
      ...OPTIONS,
      images: publishedImages([largeEdition()]),
    });
    expect(Buffer.byteLength(large.html)).toBeLessThanOrEqual(90 * 1024);
  });

  it('text: every item with its link, takeaways and footer, and the unsubscribe URL', () => {
    for (const item of edition.items) {
      expect(email.text).toContain(item.url);
      expect(email.text.replace(/\s+/g, ' ')).toContain(item.takeaways[2]);
    }
    expect(email.text).toContain('via Hugging Face Daily Papers · arXiv:2604.24819');
    expect(email.text).toContain('Unsubscribe: https://example.com/unsubscribe?token={{unsubscribe_token}}');
    expect(email.text.split('\n').every((line) => line.length <= 80)).toBe(true);
  });

  it('edition.eml: RFC 5322 multipart/alternative with List-Unsubscribe, deterministic bytes', async () => {
    const headers = headersOf(email.eml);
    expect(headers.get('from')).toBe('LLM News Digest <digest@example.org>');
    expect(headers.get('to')).toBe('readers@example.org');
    expect(headers.get('date')).toBe('Mon, 04 May 2026 00:00:00 +0000');
    expect(headers.get('message-id')).toBe('<edition-2026-05-04@digest.example.org>');
    expect(headers.get('mime-version')).toBe('1.0');
    expect(headers.get('list-unsubscribe')).toBe(
      '<https://example.com/unsubscribe?token={{unsubscribe_token}}>',
    );
    expect(headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const contentType = headers.get('content-type') ?? '';
    expect(contentType).toMatch(/^multipart\/alternative;\s*boundary="[^"]+"$/);
    const boundary = /boundary="([^"]+)"/.exec(contentType)![1]!;
    const parts = email.eml.split(`--${boundary}`).slice(1, -1);
    expect(parts).toHaveLength(2);
    const [plain, html] = parts.map((part) => ({
      headers: headersOf(part.replace(/^\r\n/, '')),
      body: decodeQuotedPrintable(part.slice(part.indexOf('\r\n\r\n') + 4).replace(/\r\n$/, '')),
    }));
    expect(plain!.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(html!.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(email.eml.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/); // CRLF line ends only
    expect(plain!.body.replace(/\r\n/g, '\n')).toBe(email.text);
    expect(html!.body.replace(/\r\n/g, '\n')).toBe(email.html.replace(/\r\n/g, '\n'));
    expect((await renderEmail(referenceEdition(), { ...OPTIONS, images })).eml).toBe(email.eml);
  });

  it('encodes a non-ASCII subject as UTF-8', async () => {
    const accented = { ...referenceEdition(), title: 'Agents — sûreté & 安全' };
    const { eml } = await renderEmail(accented, OPTIONS);
    const subject = headersOf(eml).get('subject') ?? '';
    expect(subject).toMatch(/^=\?UTF-8\?[QB]\?/i);
    const decoded = subject.replace(/=\?UTF-8\?([QB])\?([^?]*)\?=\s*/gi, (_, kind: string, data: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeQuotedPrintable(data.replace(/_/g, ' ')),
    );
    expect(decoded).toBe('LLM News Digest: Agents — sûreté & 安全 (May 4, 2026)');
  });

  it('keeps hostile fields inert in HTML and out of the headers', async () => {
    const hostile = await renderEmail(xssEdition(), OPTIONS);
    const { document } = parseHTML(hostile.html);
    expect(liveMarkup(document)).toEqual([]);
    const headers = headersOf(hostile.eml);
    expect([...headers.keys()].sort()).toEqual([
      'content-type',
      'date',
      'from',
      'list-unsubscribe',
      'list-unsubscribe-post',
      'message-id',
      'mime-version',
      'subject',
      'to',
    ]);
  });
});

describe('SMTP sending', () => {
  const received: { from: string; to: string[]; data: string }[] = [];
  let server: SMTPServer;
  let port = 0;

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((address) => address.address),
            data: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const SMTP = { host: '127.0.0.1', secure: false, requireTls: false, timeoutMs: 5_000 };

  it('delivers exactly the edition.eml bytes to a real SMTP server on loopback', async () => {
    const { eml } = await renderEmail(referenceEdition(), OPTIONS);
    const mailer = createSmtpSender({ server: { ...SMTP, port }, connections: 1 });
    const result = await sendEditionEml(mailer, eml, {
      from: 'digest@example.org',
      to: ['a@example.org', 'b@example.org'],
    });
    expect(result.accepted).toBe(2);
    expect(received).toHaveLength(1);
    expect(received[0]!.from).toBe('digest@example.org');
    expect(received[0]!.to).toEqual(['a@example.org', 'b@example.org']);
    expect(received[0]!.data.replace(/\r\n$/, '')).toBe(eml.replace(/\r\n$/, ''));
    mailer.close();
  });

  it('reports a refused connection as a PublishError', async () => {
    const mailer = createSmtpSender({ server: { ...SMTP, port: 1 }, connections: 1 });
    await expect(
      sendEditionEml(mailer, 'x', { from: 'a@example.org', to: ['b@example.org'] }),
    ).rejects.toThrow(/Sending the email failed/);
  });
});
