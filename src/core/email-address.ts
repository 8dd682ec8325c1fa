// Subscriber addresses: one normal form, validated before anything is stored or put into a mail header.
import { domainToASCII } from 'node:url';

/**
 * Decisions (see docs/subscribers.md and SECURITY.md):
 * - the whole address is lowercased: `Ada@Example.COM` and `ada@example.com` are one subscriber (RFC 5321 lets a
 *   server treat the local part case-sensitively, but no mailbox provider in use does, and two rows for one reader
 *   would mean two mails);
 * - the address is otherwise kept as typed (`j.ohn+news@gmail.com` is what we store and send to: the reader chose
 *   it, maybe to filter mail); its `mailbox` is the inbox the mail lands in by the provider's own rules (PROVIDERS
 *   below): `johnsmith@gmail.com` for `John.Smith+x@googlemail.com`. Per-inbox limits and duplicates key on the
 *   mailbox, so neither dots, tags nor a second domain of the provider multiply the confirmation mails one inbox
 *   receives, or the rows one reader has;
 * - only the dot-atom form is accepted (no quoted local parts, comments or display names), so nothing that could
 *   break a header line (CR, LF, NUL, "<", ">", ",", ";", quotes, spaces) ever passes.
 */
export interface NormalisedAddress {
  /** What we store and send to: the address as typed, lowercased. */
  address: string;
  /** The inbox it reaches by its provider's rules (canonicalMailbox): the key for per-inbox limits and duplicates. */
  mailbox: string;
}

/** How a provider maps its addresses to inboxes. */
interface MailboxRule {
  /** The provider's one domain, when it has several for one inbox. */
  domain?: string;
  /** Characters the provider ignores in the local part (Gmail: dots; Proton: dots, hyphens, underscores). */
  ignored?: RegExp;
  /** What starts a tag the inbox ignores (subaddressing): "+" unless the provider uses another. */
  tag: string;
}

const GMAIL: MailboxRule = { domain: 'gmail.com', ignored: /\./g, tag: '+' };
const PROTON: MailboxRule = { domain: 'proton.me', ignored: /[._-]/g, tag: '+' };
const YAHOO: MailboxRule = { tag: '-' };
/**
 * The providers whose rules differ from the default (a "+tag" is ignored; RFC 5233 subaddressing, which Outlook,
 * Hotmail, Live, Fastmail, iCloud and most self-hosted servers follow). Erring towards one inbox only makes a limit
 * stricter: two people never share a Gmail inbox, and on a domain where "+" is an ordinary character the cost is
 * that `a+b@` and `a@` count as one reader.
 *   gmail.com, googlemail.com   dots ignored, "+tag", one inbox across both domains
 *   proton.me, protonmail.com,  dots, hyphens and underscores ignored, "+tag", one account across the domains
 *   protonmail.ch, pm.me
 *   yahoo.com, ymail.com,       "-keyword" disposable addresses (Yahoo IDs hold no "-" or "+" of their own)
 *   rocketmail.com
 */
const PROVIDERS: Readonly<Record<string, MailboxRule>> = {
  'gmail.com': GMAIL,
  'googlemail.com': GMAIL,
  'proton.me': PROTON,
  'protonmail.com': PROTON,
  'protonmail.ch': PROTON,
  'pm.me': PROTON,
  'yahoo.com': YAHOO,
  'ymail.com': YAHOO,
  'rocketmail.com': YAHOO,
};
const DEFAULT_RULE: MailboxRule = { tag: '+' };

/**
 * The inbox a normalised (lowercase) address reaches: its tag cut (at "+", or the provider's own separator, and at
 * "+" always), the characters the provider ignores removed, the provider's one domain.
 */
export function canonicalMailbox(address: string): string {
  const at = address.lastIndexOf('@');
  const domain = address.slice(at + 1);
  const rule = PROVIDERS[domain] ?? DEFAULT_RULE;
  let local = address.slice(0, at);
  for (const separator of new Set([rule.tag, '+'])) {
    const cut = local.indexOf(separator);
    if (cut > 0) local = local.slice(0, cut);
  }
  if (rule.ignored) local = local.replace(rule.ignored, '') || local;
  return `${local}@${rule.domain ?? domain}`;
}

export type AddressProblem =
  | 'empty'
  | 'too-long'
  | 'control-character'
  | 'not-an-address'
  | 'bad-local-part'
  | 'bad-domain';

export type AddressCheck = ({ ok: true } & NormalisedAddress) | { ok: false; problem: AddressProblem };

export const MAX_ADDRESS_LENGTH = 254;
const MAX_LOCAL_LENGTH = 64;
const LOCAL_PART = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const TOP_LEVEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

export const ADDRESS_PROBLEMS: Record<AddressProblem, string> = {
  empty: 'an email address is required',
  'too-long': `an email address has at most ${MAX_ADDRESS_LENGTH} characters`,
  'control-character': 'an email address cannot contain line breaks or control characters',
  'not-an-address': 'expected an address like name@example.com',
  'bad-local-part': 'the part before "@" has characters an address cannot have',
  'bad-domain': 'the part after "@" is not a valid domain name',
};

export function normaliseAddress(input: string): AddressCheck {
  // Control characters are refused before trimming (a trailing "\r\n" is an injection attempt, not whitespace);
  // a pasted tab at either end is only trimmed.
  if (/[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/.test(input))
    return { ok: false, problem: 'control-character' };
  const trimmed = input.trim();
  if (!trimmed) return { ok: false, problem: 'empty' };
  if (trimmed.length > MAX_ADDRESS_LENGTH) return { ok: false, problem: 'too-long' };
  const at = trimmed.lastIndexOf('@');
  if (at <= 0 || at === trimmed.length - 1 || trimmed.indexOf('@') !== at) {
    return { ok: false, problem: 'not-an-address' };
  }
  const local = trimmed.slice(0, at).toLowerCase();
  if (local.length > MAX_LOCAL_LENGTH || !LOCAL_PART.test(local))
    return { ok: false, problem: 'bad-local-part' };
  const domain = asciiDomain(trimmed.slice(at + 1));
  if (!domain) return { ok: false, problem: 'bad-domain' };
  const address = `${local}@${domain}`;
  if (address.length > MAX_ADDRESS_LENGTH) return { ok: false, problem: 'too-long' };
  return { ok: true, address, mailbox: canonicalMailbox(address) };
}

/** The domain in lowercase ASCII (IDNs as punycode), or null when it is not a public-looking host name. */
function asciiDomain(raw: string): string | null {
  if (/[^\p{L}\p{N}.-]/u.test(raw)) return null;
  const domain = domainToASCII(raw.toLowerCase());
  if (!domain || domain.length > 253) return null;
  const labels = domain.split('.');
  if (labels.length < 2) return null;
  if (!labels.every((label) => DOMAIN_LABEL.test(label))) return null;
  return TOP_LEVEL.test(labels.at(-1)!) ? domain : null;
}

/** True when `value` can go into a header line as is (a display name, a subject): no line breaks or controls. */
export function isHeaderSafe(value: string): boolean {
  return !/[\u0000-\u001f\u007f\u2028\u2029]/.test(value);
}

/** Hosts that are this machine: a mail catcher there never hands a mail to anyone else. */
export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/**
 * Domains reserved for documentation, tests and this machine (RFC 2606, RFC 6761): a sender there cannot be
 * verified by any receiving server, so it is only for a local mail catcher.
 */
export function isReservedMailDomain(domain: string): boolean {
  const name = domain.toLowerCase().replace(/\.$/, '');
  if (
    ['example.com', 'example.org', 'example.net'].some(
      (reserved) => name === reserved || name.endsWith(`.${reserved}`),
    )
  )
    return true;
  return (
    /(^|\.)(example|test|invalid|localhost|local)$/.test(name) || /^[\d.]+$/.test(name) || name.includes(':')
  );
}

/**
 * The bare address of publish.email.from, for the SMTP envelope; throws when it is not one line with an address.
 * The address is the bracketed part at the end: a display name may hold "<" and ">" itself.
 */
export function envelopeSender(from: string): string {
  if (!isHeaderSafe(from)) throw new Error('publish.email.from must be one line');
  const sender = normaliseAddress(/<([^>]+)>\s*$/.exec(from)?.[1] ?? from);
  if (!sender.ok) throw new Error(`publish.email.from has no valid address (${from})`);
  return sender.address;
}
