// Subscriber addresses: one normal form, validated before anything is stored or put into a mail header.
import { domainToASCII } from 'node:url';

/**
 * Decisions (see README "Running the service"):
 * - the whole address is lowercased: `Ada@Example.COM` and `ada@example.com` are one subscriber (RFC 5321 lets a
 *   server treat the local part case-sensitively, but no mailbox provider in use does, and two rows for one reader
 *   would mean two mails);
 * - a `+tag` is kept: `ada+news@example.com` is its own address (the reader chose it to filter mail, and on some
 *   domains "+" is an ordinary character). Its `mailbox` (the address without the tag) is what per-inbox limits key
 *   on, so tags cannot multiply the confirmation mails one inbox receives;
 * - only the dot-atom form is accepted (no quoted local parts, comments or display names), so nothing that could
 *   break a header line (CR, LF, NUL, "<", ">", ",", ";", quotes, spaces) ever passes.
 */
export interface NormalisedAddress {
  /** What we store and send to. */
  address: string;
  /** The address without a "+tag": the key for per-inbox limits. */
  mailbox: string;
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
  const plus = local.indexOf('+');
  const mailbox = plus > 0 ? `${local.slice(0, plus)}@${domain}` : address;
  return { ok: true, address, mailbox };
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
