// Refuses URLs that resolve to loopback, private, link-local or otherwise non-public addresses.
// Only configured source URLs skip this check; everything found in content or typed by a user goes through it.
// The check that counts happens where the connection is made (_pinned-agent.ts): the addresses checked are the
// addresses connected to, so a second DNS answer cannot slip a private address in (DNS rebinding).
import ipaddr from 'ipaddr.js';
import { BlockedUrlError, FetchError } from '../core/errors.js';
import { displayUrl, httpUrlProblem } from '../core/urls.js';

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

let dns: typeof import('node:dns/promises') | undefined;
/** The system resolver, loaded on the first lookup (an offline command makes none). */
export const systemLookup: HostLookup = async (hostname) => {
  dns ??= await import('node:dns/promises');
  return dns.lookup(hostname, { all: true, verbatim: true });
};

/** The IPv4 addresses an IPv6 address carries (mapped, compatible, NAT64, 6to4, Teredo); empty when none. */
export function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4[] {
  const bytes = address.toByteArray();
  const v4 = (...indexes: number[]) => new ipaddr.IPv4(indexes.map((index) => bytes[index] ?? 0));
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0);
  const range = address.range();
  if (range === 'loopback' || range === 'unspecified') return [];
  // ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (translated, RFC 6145), ::a.b.c.d (compatible, deprecated)
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return [v4(12, 13, 14, 15)];
  if (zeros(0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zeros(10, 12)) return [v4(12, 13, 14, 15)];
  if (zeros(0, 12)) return [v4(12, 13, 14, 15)];
  const prefix = (...values: number[]) => values.every((value, index) => bytes[index] === value);
  // NAT64 well-known prefix 64:ff9b::/96 (RFC 6052)
  if (prefix(0x00, 0x64, 0xff, 0x9b) && zeros(4, 12)) return [v4(12, 13, 14, 15)];
  // NAT64 local-use 64:ff9b:1::/48 (RFC 8215): the operator picks the prefix length, so every RFC 6052
  // position the address could be at is judged (the "u" octet, byte 8, is always skipped).
  if (prefix(0x00, 0x64, 0xff, 0x9b, 0x00, 0x01)) {
    return [v4(12, 13, 14, 15), v4(6, 7, 9, 10), v4(7, 9, 10, 11), v4(9, 10, 11, 12)];
  }
  // 6to4 2002:AABB:CCDD::/48
  if (prefix(0x20, 0x02)) return [v4(2, 3, 4, 5)];
  // Teredo 2001:0::/32: server address, then the client address with every bit flipped
  if (prefix(0x20, 0x01, 0x00, 0x00)) {
    const client = new ipaddr.IPv4([12, 13, 14, 15].map((index) => (bytes[index] ?? 0) ^ 0xff));
    return [v4(4, 5, 6, 7), client];
  }
  return [];
}

/** The ipaddr.js range names an address is judged by: an IPv6 address that embeds IPv4 by the IPv4 inside. */
export function addressRanges(address: string): string[] {
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return [parsed.range()];
  const embedded = embeddedIPv4(parsed as ipaddr.IPv6);
  return embedded.length ? embedded.map((inner) => inner.range()) : [parsed.range()];
}

/** The range name shown in a refusal: the first one that is not allowed, else the first. */
export function addressRange(address: string): string {
  const ranges = addressRanges(address);
  return ranges.find((range) => range !== 'unicast') ?? ranges[0] ?? 'invalid';
}

/** True when an address may be contacted: public unicast, or loopback when allowed. */
export function isAllowedAddress(address: string, allowLoopback = false): boolean {
  if (!ipaddr.isValid(address)) return false;
  return addressRanges(address).every(
    (range) => range === 'unicast' || (allowLoopback && range === 'loopback'),
  );
}

/** The refusal for a host whose address is not public; `url` names what was asked for when known. */
export function refusal(host: string, address: string, url?: string): BlockedUrlError {
  const range = ipaddr.isValid(address) ? addressRange(address) : 'invalid';
  const what = url ? displayUrl(url) : host;
  const resolves = host === address ? 'is' : `${host} resolves to`;
  return new BlockedUrlError(
    `refused ${what}: ${resolves} ${address} (${range}), which is not a public address. ` +
      'Only configured source URLs may point at local or private networks.',
    { url: url ?? host },
  );
}

/** The host of a URL as an address when it is a literal IP (brackets removed), else null. */
export function literalAddress(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(host) ? host : null;
}

/** Throws BlockedUrlError unless `url` is http(s); checks a literal-IP host without connecting or resolving. */
export function assertFetchableUrl(url: string, guard: GuardOptions | null): URL {
  const problem = httpUrlProblem(url);
  if (problem) throw new BlockedUrlError(`refused ${displayUrl(url)}: ${problem}`, { url });
  const parsed = new URL(url);
  const literal = guard ? literalAddress(parsed) : null;
  if (literal && !isAllowedAddress(literal, guard?.allowLoopback)) throw refusal(literal, literal, url);
  return parsed;
}

/**
 * Throws BlockedUrlError unless `url` is http(s) and every address its host resolves to is public.
 * Literal-IP tricks (decimal, octal, hex IPv4, bracketed IPv6) are normalised by WHATWG URL parsing first.
 * The HTTP client does not call this: it checks at connect time (see _pinned-agent.ts).
 */
export async function assertPublicUrl(url: string, options: GuardOptions = {}): Promise<URL> {
  const parsed = assertFetchableUrl(url, options);
  if (literalAddress(parsed)) return parsed;
  const host = parsed.hostname;
  const addresses = await resolveHost(host, options.lookup ?? systemLookup, url);
  for (const { address } of addresses) {
    if (!isAllowedAddress(address, options.allowLoopback)) throw refusal(host, address, url);
  }
  return parsed;
}

/** Every address of `host`; a FetchError naming the host when it has none or cannot be resolved. */
export async function resolveHost(
  host: string,
  lookup: HostLookup,
  url?: string,
): Promise<ResolvedAddress[]> {
  let resolved: ResolvedAddress[];
  try {
    resolved = await lookup(host);
  } catch (error) {
    const where = url ? ` (${displayUrl(url)})` : '';
    throw new FetchError(`could not resolve ${host}${where}; check the URL and your network`, {
      url: url ?? host,
      cause: error,
    });
  }
  if (!resolved.length) throw new FetchError(`${host} has no addresses; check the URL`, { url: url ?? host });
  return resolved;
}
