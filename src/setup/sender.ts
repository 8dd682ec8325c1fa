// The sender `digest init` writes when none is given. Light (no IO): init's questions show it as their default.
import { isReservedMailDomain } from '../core/email-address.js';

/**
 * The sender when none is given: digest@ the base URL's domain (its "www." dropped), or, for an address on this
 * machine or a reserved domain, digest@digest.localhost (RFC 6761's loopback name) — which only a local mail catcher takes (`digest doctor` says so).
 * Never example.com: a sender nobody owns fails every receiver's checks.
 */
export function defaultSender(name: string, baseUrl: string): string {
  let host = '';
  try {
    host = new URL(baseUrl).hostname.replace(/^www\./, '');
  } catch {}
  const domain = host && !isReservedMailDomain(host) && host.includes('.') ? host : 'digest.localhost';
  return `${name.replace(/[<>"\r\n]/g, '')} <digest@${domain}>`;
}
