// A reader's copy of a mail written as bytes: the same base64 lines and CRLF line ends a string join and Node's own
// encoder give, for contents of every length around a line and a group, in one or two bytes a character.
import { describe, expect, it } from 'vitest';
import { fillable, multipartMessage } from '../../src/mail/mail-parts.js';

/** What the message was before it was written as bytes: strings joined, Node's base64 cut into 76-character lines. */
function expected(headers: string, boundary: string, parts: { type: string; text: string }[]): string {
  const part = ({ type, text }: { type: string; text: string }) => {
    const encoded = Buffer.from(text.replace(/\r?\n/g, '\r\n'), 'utf8').toString('base64');
    const lines = encoded.match(/.{1,76}/g) ?? [];
    return [
      `--${boundary}`,
      `Content-Type: ${type}; charset=utf-8`,
      'Content-Transfer-Encoding: base64',
      '',
      lines.join('\r\n'),
    ].join('\r\n');
  };
  return [headers, '', ...parts.map(part), `--${boundary}--`, ''].join('\r\n');
}

describe('a mail written as bytes', () => {
  it('fills each slot with its value, with CRLF line ends, in one or two bytes a character', () => {
    const fill = fillable('Hi — read\nTOKEN and PREFS.\r\nAgain: TOKEN\n', ['TOKEN', 'PREFS']);
    const filled = Buffer.concat(fill(['u.1', 'p.2'])).toString('utf8');
    expect(filled).toBe('Hi — read\r\nu.1 and p.2.\r\nAgain: u.1\r\n');
  });

  it('refuses a template that lost a slot', () => {
    expect(() => fillable('no link here', ['TOKEN'])).toThrow(/lost a link \(unsubscribe\)/);
  });

  it('encodes every length around a group and a line exactly as Node does, lines of 76', () => {
    for (const length of [0, 1, 2, 3, 4, 56, 57, 58, 113, 114, 115, 1000, 4097]) {
      const text = 'aé—'.repeat(length).slice(0, length);
      const html = `<p>${text}</p>\n`;
      const message = multipartMessage('Subject: x\r\nTo: a@example.org', 'B', [
        { type: 'text/plain', content: [Buffer.from(text)] },
        { type: 'text/html', content: [Buffer.from('<p>'), Buffer.from(text), Buffer.from('</p>\r\n')] },
      ]).bytes.toString('utf8');
      expect(message).toBe(
        expected('Subject: x\r\nTo: a@example.org', 'B', [
          { type: 'text/plain', text },
          { type: 'text/html', text: html },
        ]),
      );
      for (const line of message.split('\r\n')) expect(line.length).toBeLessThanOrEqual(76);
    }
  });

  it('keeps an address header in UTF-8', () => {
    const message = multipartMessage('To: jörg@example.org', 'B', []);
    expect(message.bytes.toString('utf8')).toBe('To: jörg@example.org\r\n\r\n--B--\r\n');
  });

  it('reuses a buffer only once it was given back, and never while a mail still holds it', () => {
    const write = (to: string) =>
      multipartMessage(`To: ${to}`, 'B', [{ type: 'text/plain', content: [Buffer.from(`for ${to}`)] }]);
    const first = write('a@example.org');
    const second = write('b@example.org');
    expect(second.bytes.buffer).not.toBe(first.bytes.buffer);
    expect(first.bytes.toString('utf8')).toContain('To: a@example.org');
    first.release();
    first.release();
    const third = write('c@example.org');
    const fourth = write('d@example.org');
    expect(third.bytes.buffer).toBe(first.bytes.buffer);
    expect(fourth.bytes.buffer).not.toBe(first.bytes.buffer);
    expect(third.bytes.toString('utf8')).toBe(
      expected('To: c@example.org', 'B', [{ type: 'text/plain', text: 'for c@example.org' }]),
    );
    expect(second.bytes.toString('utf8')).toContain('To: b@example.org');
  });
});
