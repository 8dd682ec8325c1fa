import { describe, expect, it } from 'vitest';
import { isHeaderSafe, normaliseAddress } from '../../src/core/email-address.js';

describe('normaliseAddress', () => {
  it('trims and lowercases the whole address: other cases are the same subscriber', () => {
    const variants = ['Ada@Example.COM', ' ada@example.com ', 'ADA@EXAMPLE.COM', '\tAda@example.com'];
    for (const variant of variants) {
      expect(normaliseAddress(variant)).toEqual({
        ok: true,
        address: 'ada@example.com',
        mailbox: 'ada@example.com',
      });
    }
  });

  it('keeps a +tag as its own address but keys the inbox without it', () => {
    const tagged = normaliseAddress('Ada+News@example.com');
    expect(tagged).toEqual({ ok: true, address: 'ada+news@example.com', mailbox: 'ada@example.com' });
    const other = normaliseAddress('ada+spam@example.com');
    expect(other.ok && other.address).not.toBe(tagged.ok && tagged.address);
    expect(other.ok && other.mailbox).toBe('ada@example.com');
  });

  it('refuses CR, LF and other control characters anywhere, even trailing', () => {
    for (const attack of [
      'ada@example.com\r\nBcc: victim@example.org',
      'ada@example.com\n',
      'ada\r@example.com',
      'ada@exa\u0000mple.com',
      'ada@example.com\u2028',
    ]) {
      expect(normaliseAddress(attack)).toEqual({ ok: false, problem: 'control-character' });
    }
  });

  it('refuses header syntax: display names, lists, quoted local parts, comments', () => {
    for (const attack of [
      'Ada <ada@example.com>',
      'ada@example.com, eve@example.org',
      'ada@example.com;eve@example.org',
      '"ada"@example.com',
      'ada(comment)@example.com',
      'ada @example.com',
      'a..b@example.com',
      '.ada@example.com',
    ]) {
      const result = normaliseAddress(attack);
      expect(result.ok, attack).toBe(false);
    }
  });

  it('refuses broken domains and accepts IDNs as punycode', () => {
    expect(normaliseAddress('ada@localhost')).toEqual({ ok: false, problem: 'bad-domain' });
    expect(normaliseAddress('ada@-bad.com')).toEqual({ ok: false, problem: 'bad-domain' });
    expect(normaliseAddress('ada@127.0.0.1')).toEqual({ ok: false, problem: 'bad-domain' });
    expect(normaliseAddress('ada@[127.0.0.1]')).toEqual({ ok: false, problem: 'bad-domain' });
    expect(normaliseAddress('ada@bücher.de')).toMatchObject({ ok: true, address: 'ada@xn--bcher-kva.de' });
  });

  it('refuses empty, missing "@" and overlong input', () => {
    expect(normaliseAddress('   ')).toEqual({ ok: false, problem: 'empty' });
    expect(normaliseAddress('ada.example.com')).toEqual({ ok: false, problem: 'not-an-address' });
    expect(normaliseAddress('a@b@example.com')).toEqual({ ok: false, problem: 'not-an-address' });
    expect(normaliseAddress(`${'a'.repeat(65)}@example.com`)).toEqual({
      ok: false,
      problem: 'bad-local-part',
    });
    expect(normaliseAddress(`ada@${'a'.repeat(250)}.com`)).toEqual({ ok: false, problem: 'too-long' });
  });
});

describe('isHeaderSafe', () => {
  it('refuses line breaks in a display name', () => {
    expect(isHeaderSafe('Ada Lovelace')).toBe(true);
    expect(isHeaderSafe('Ada\r\nBcc: eve@example.org')).toBe(false);
    expect(isHeaderSafe('Ada\n')).toBe(false);
  });
});
