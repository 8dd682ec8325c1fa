// One inbox, one mailbox (core/email-address.ts): the address is kept as typed (lowercased), its mailbox follows the
// provider's rules, so limits and duplicates cannot be multiplied by dots, tags or a provider's second domain.
import { describe, expect, it } from 'vitest';
import { canonicalMailbox, normaliseAddress } from '../../src/core/email-address.js';

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
