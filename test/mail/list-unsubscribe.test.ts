import { describe, expect, it } from 'vitest';
import { listUnsubscribeHeaders, unsubscribeUrl } from '../../src/mail/list-unsubscribe.js';

describe('listUnsubscribeHeaders', () => {
  it('builds RFC 8058 one-click headers with an https URL and a mailto', () => {
    const headers = listUnsubscribeHeaders({
      baseUrl: 'https://digest.example.org/news/',
      token: 'u.MTc.abc.signature_-',
      mailto: 'Unsubscribe@Example.org',
    });
    expect(headers).toEqual({
      'List-Unsubscribe':
        '<https://digest.example.org/news/unsubscribe?token=u.MTc.abc.signature_->, ' +
        '<mailto:unsubscribe@example.org?subject=unsubscribe%20u.MTc.abc.signature_->',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    expect(unsubscribeUrl('https://digest.example.org/news', 't')).toBe(
      'https://digest.example.org/news/unsubscribe?token=t',
    );
  });

  it('refuses plain http except on loopback, and a token or mailto that could break the header', () => {
    expect(() => listUnsubscribeHeaders({ baseUrl: 'http://digest.example.org/', token: 't' })).toThrow(
      /https/,
    );
    expect(
      listUnsubscribeHeaders({ baseUrl: 'http://127.0.0.1:8080/', token: 't' })['List-Unsubscribe'],
    ).toBe('<http://127.0.0.1:8080/unsubscribe?token=t>');
    expect(() => listUnsubscribeHeaders({ baseUrl: 'https://d.example/', token: 't>\r\nBcc: x' })).toThrow();
    expect(() =>
      listUnsubscribeHeaders({ baseUrl: 'https://d.example/', token: 't', mailto: 'x@y.com>\r\nBcc: z' }),
    ).toThrow();
  });
});
