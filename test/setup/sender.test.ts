// The sender `digest init` writes when none is given: the base URL's own domain, never a reserved one.
import { describe, expect, it } from 'vitest';
import { isReservedMailDomain } from '../../src/core/email-address.js';
import { defaultSender } from '../../src/setup/sender.js';

describe('defaultSender', () => {
  it("takes the base URL's domain, without www.", () => {
    expect(defaultSender('Agents Weekly', 'https://www.agents-weekly.dev/')).toBe(
      'Agents Weekly <digest@agents-weekly.dev>',
    );
    expect(defaultSender('News', 'https://news.acme.io/digest/')).toBe('News <digest@news.acme.io>');
  });

  it('falls back to digest@digest.localhost (a mail catcher only) for a local or reserved address', () => {
    for (const baseUrl of [
      'http://127.0.0.1:8080/',
      'http://localhost:8080/',
      'https://digest.example.com/',
      'https://example.org/',
      'https://site.test/',
      'http://[::1]:8080/',
      'not a url',
    ])
      expect(defaultSender('Digest', baseUrl), baseUrl).toBe('Digest <digest@digest.localhost>');
  });

  it('keeps header characters out of the display name', () => {
    expect(defaultSender('A <b> "c"\r\nBcc: x', 'https://acme.io/')).toBe('A b cBcc: x <digest@acme.io>');
  });
});

describe('isReservedMailDomain', () => {
  it('knows the RFC 2606 / 6761 names and addresses', () => {
    for (const domain of [
      'example.com',
      'news.example.net',
      'a.example',
      'x.test',
      'y.invalid',
      'localhost',
      '10.0.0.1',
    ])
      expect(isReservedMailDomain(domain), domain).toBe(true);
    for (const domain of ['acme.io', 'examples.com', 'mytest.dev'])
      expect(isReservedMailDomain(domain), domain).toBe(false);
  });
});
