// Refuses URLs that resolve to loopback, private, link-local or otherwise non-public addresses.
// Only configured source URLs skip this check; everything found in content or typed by a user goes through it.
import { lookup as dnsLookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { BlockedUrlError, FetchError } from '../core/errors.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address it has (injectable so tests never touch DNS). */
export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

export interface GuardOptions {
  /** Lets loopback addresses (and only those) through: tests and local demos. */
  allowLoopback?: boolean;
  lookup?: HostLookup;
}

export const systemLookup: HostLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** The ipaddr.js range name of an address, with IPv4-mapped IPv6 judged as the IPv4 address it carries. */
export function addressRange(address: string): string {
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range();
}

/** True when an address may be contacted: public unicast, or loopback when allowed. */
export function isAllowedAddress(address: string, allowLoopback = false): boolean {
  if (!ipaddr.isValid(address)) return false;
  const range = addressRange(address);
  return range === 'unicast' || (allowLoopback && range === 'loopback');
}

/**
 * Throws BlockedUrlError unless `url` is http(s) and every address its host resolves to is public.
 * Literal-IP tricks (decimal, octal, hex IPv4, bracketed IPv6) are normalised by WHATWG URL parsing first.
 */
export async function assertPublicUrl(url: string, options: GuardOptions = {}): Promise<URL> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (error) {
    throw new BlockedUrlError(`not a valid URL: ${url}`, url, undefined, { cause: error });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new BlockedUrlError(`refused ${parsed.protocol} URL ${url}: only http and https are fetched`, url);
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const addresses = ipaddr.isValid(host) ? [host] : await resolve(host, url, options.lookup ?? systemLookup);
  for (const address of addresses) {
    if (!isAllowedAddress(address, options.allowLoopback)) {
      const range = ipaddr.isValid(address) ? addressRange(address) : 'invalid';
      throw new BlockedUrlError(
        `refused ${url}: ${host} resolves to ${address} (${range}), which is not a public address. ` +
          'Only configured source URLs may point at local or private networks.',
        url,
      );
    }
  }
  return parsed;
}

async function resolve(host: string, url: string, lookup: HostLookup): Promise<string[]> {
  let resolved: ResolvedAddress[];
  try {
    resolved = await lookup(host);
  } catch (error) {
    throw new FetchError(
      `could not resolve ${host} (${url}); check the URL and your network`,
      url,
      undefined,
      {
        cause: error,
      },
    );
  }
  if (!resolved.length) throw new FetchError(`${host} has no addresses (${url}); check the URL`, url);
  return resolved.map((entry) => entry.address);
}
