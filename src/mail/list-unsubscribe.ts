// RFC 2369 List-Unsubscribe with RFC 8058 one-click: what Gmail and Yahoo require of bulk senders since 2024.
import { normaliseAddress } from '../core/email-address.js';

export interface ListUnsubscribeInput {
  /** The site's public base URL; the one-click endpoint is `<baseUrl>unsubscribe?token=…`. */
  baseUrl: string;
  /** The subscriber's 'unsubscribe' token. */
  token: string;
  /** A mailbox that unsubscribes the sender of a mail to it, e.g. unsubscribe@example.org (optional). */
  mailto?: string;
}

/** The one-click URL for a token. Also the footer link of the HTML and text parts. */
export function unsubscribeUrl(baseUrl: string, token: string): string {
  const url = new URL('unsubscribe', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  url.searchParams.set('token', token);
  return url.href;
}

/**
 * Both headers, ready for nodemailer's `headers`. RFC 8058 wants an HTTPS URL; plain http is accepted for loopback
 * hosts only, so tests and local mail catchers work and production cannot drift to http by mistake.
 */
export function listUnsubscribeHeaders(input: ListUnsubscribeInput): Record<string, string> {
  if (!/^[A-Za-z0-9._-]+$/.test(input.token)) throw new Error('an unsubscribe token is URL-safe text');
  const url = new URL(unsubscribeUrl(input.baseUrl, input.token));
  if (url.protocol !== 'https:' && !isLoopback(url.hostname)) {
    throw new Error(`List-Unsubscribe needs an https base URL for one-click unsubscribe (got ${url.origin})`);
  }
  const targets = [`<${url.href}>`];
  if (input.mailto) {
    const mailbox = normaliseAddress(input.mailto);
    if (!mailbox.ok) throw new Error(`the List-Unsubscribe mailto address is not valid: ${input.mailto}`);
    targets.push(`<mailto:${mailbox.address}?subject=${encodeURIComponent(`unsubscribe ${input.token}`)}>`);
  }
  return {
    'List-Unsubscribe': targets.join(', '),
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}
