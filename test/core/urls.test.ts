import { describe, expect, it } from 'vitest';
import {
  displayUrl,
  httpUrl,
  httpUrlProblem,
  isHttpUrl,
  redactUrl,
  redactUrls,
} from '../../src/core/urls.js';

describe('the one URL rule', () => {
  it('accepts absolute http(s) URLs with a host, resolving against a base', () => {
    expect(httpUrl('https://example.com/a b')).toBe('https://example.com/a%20b');
    expect(httpUrl('/post/1', 'https://example.com/feed.xml')).toBe('https://example.com/post/1');
    expect(isHttpUrl('HTTP://Example.com')).toBe(true);
  });

  it.each([
    'javascript:alert(1)',
    'data:text/html,x',
    'file:///etc/passwd',
    'ftp://x/',
    'http:example.com',
    '/relative',
    '',
    'http://',
  ])('refuses %s', (value) => {
    expect(httpUrl(value)).toBeNull();
    expect(isHttpUrl(value)).toBe(false);
  });

  it('names the problem', () => {
    expect(httpUrlProblem('ftp://example.com/')).toBe('only http and https URLs are fetched, not ftp:');
    expect(httpUrlProblem('not a url')).toBe('not a valid URL');
    expect(httpUrlProblem('https://example.com/')).toBeNull();
  });
});

describe('URLs in messages', () => {
  it('lose user:password@', () => {
    expect(displayUrl('https://alice:s3cret@example.com/feed')).toBe('https://***@example.com/feed');
    expect(displayUrl('https://alice@example.com/feed')).toBe('https://***@example.com/feed');
    expect(redactUrl('not a url://bob:pw@host/x')).not.toContain('pw');
  });

  it('lose secret query and fragment parameters and keep the others as they were', () => {
    const shown = redactUrl(
      'https://api.example.com/v1/feed?date=2026-05-01&api_key=AAA&token=BBB&key=CCC&access_token=DDD&sig=EEE&X-Amz-Signature=FFF&page=2',
    );
    expect(shown).toBe(
      'https://api.example.com/v1/feed?date=2026-05-01&api_key=***&token=***&key=***&access_token=***&sig=***&X-Amz-Signature=***&page=2',
    );
    expect(displayUrl('https://example.com/cb#access_token=GGG&state=1')).toBe(
      'https://example.com/cb#access_token=***&state=1',
    );
    for (const secret of ['AAA', 'BBB', 'CCC', 'DDD', 'EEE', 'FFF']) expect(shown).not.toContain(secret);
  });

  it('are shortened in the middle to at most 120 characters', () => {
    const ids = Array.from({ length: 100 }, (_, index) => `2604.${String(10000 + index)}`).join(',');
    const shown = displayUrl(`http://export.arxiv.org/api/query?id_list=${ids}&max_results=100`);
    expect(shown.length).toBeLessThanOrEqual(120);
    expect(shown.startsWith('http://export.arxiv.org/api/query?id_list=2604.10000,')).toBe(true);
    expect(shown.endsWith('&max_results=100')).toBe(true);
    expect(shown).toContain('…');
    expect(displayUrl('https://example.com/feed.xml')).toBe('https://example.com/feed.xml');
    const huge = displayUrl(`https://example.com/${'a'.repeat(100_000)}?token=secret`);
    expect(huge.length).toBeLessThanOrEqual(120);
    expect(huge).not.toContain('secret');
  });

  it('are redacted inside free text', () => {
    expect(
      redactUrls('HTTP 500 from https://u:p@example.com/x?apikey=123. Try again (see http://a.test/?sig=9).'),
    ).toBe('HTTP 500 from https://***@example.com/x?apikey=***. Try again (see http://a.test/?sig=***).');
  });
});
