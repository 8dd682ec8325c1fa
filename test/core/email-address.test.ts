// Subscriber addresses (core/email-address.ts): one normal form, refused when it could break a header; kept as typed
// (lowercased) while its mailbox follows the provider's rules, so limits and duplicates cannot be multiplied by dots,
// tags or a provider's second domain.
import { describe, expect, it } from 'vitest';
import { canonicalMailbox, isHeaderSafe, normaliseAddress } from '../../src/core/email-address.js';

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

  it('keeps a +tag in the address but keys the inbox without it', () => {
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

const mailboxOf = (input: string) => {
  const checked = normaliseAddress(input);
  if (!checked.ok) throw new Error(`${input}: ${checked.problem}`);
  return checked;
};

describe('canonicalMailbox', () => {
  it('Gmail: dots and +tags ignored, googlemail.com is gmail.com; the address stays as typed', () => {
    for (const variant of [
      'johnsmithx@gmail.com',
      'j.ohnsmithx@gmail.com',
      'jo.hn.smi.thx@gmail.com',
      'JohnSmithX+news@Gmail.com',
      'john.smithx@googlemail.com',
      'j.o.h.n.s.m.i.t.h.x+a.b@googlemail.com',
    ]) {
      expect(mailboxOf(variant).mailbox, variant).toBe('johnsmithx@gmail.com');
    }
    expect(mailboxOf('J.OhnSmithX+News@GoogleMail.com').address).toBe('j.ohnsmithx+news@googlemail.com');
  });

  it('Proton: dots, hyphens and underscores ignored across its domains; +tags too', () => {
    for (const variant of [
      'ada.user@proton.me',
      'ada-user@pm.me',
      'ada_user+x@protonmail.com',
      'adauser@protonmail.ch',
    ]) {
      expect(mailboxOf(variant).mailbox, variant).toBe('adauser@proton.me');
    }
  });

  it('Yahoo: the "-keyword" of a disposable address is cut', () => {
    expect(mailboxOf('ada-news@yahoo.com').mailbox).toBe('ada@yahoo.com');
    expect(mailboxOf('ada-x@ymail.com').mailbox).toBe('ada@ymail.com');
  });

  it('Outlook, Hotmail, Live, Fastmail, iCloud and any other domain: a +tag is cut, dots and hyphens kept', () => {
    expect(mailboxOf('ada.l+news@outlook.com').mailbox).toBe('ada.l@outlook.com');
    expect(mailboxOf('ada+x@hotmail.com').mailbox).toBe('ada@hotmail.com');
    expect(mailboxOf('ada+x@live.com').mailbox).toBe('ada@live.com');
    expect(mailboxOf('ada+x@fastmail.com').mailbox).toBe('ada@fastmail.com');
    expect(mailboxOf('ada+x@icloud.com').mailbox).toBe('ada@icloud.com');
    expect(mailboxOf('a.da-l+x@example.org').mailbox).toBe('a.da-l@example.org');
    // A hyphen is an ordinary character outside Yahoo.
    expect(mailboxOf('ada-news@example.org').mailbox).toBe('ada-news@example.org');
  });

  it('never empties a local part: a tag or separator at the start is kept', () => {
    expect(canonicalMailbox('+x@example.org')).toBe('+x@example.org');
    expect(canonicalMailbox('...@gmail.com')).toBe('...@gmail.com');
    expect(canonicalMailbox('-x@yahoo.com')).toBe('-x@yahoo.com');
  });
});
