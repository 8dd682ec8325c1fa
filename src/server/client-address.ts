// Who is asking: the socket's address, or the proxy's X-Forwarded-For when the proxy is trusted.
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import ipaddr from 'ipaddr.js';

/** Longer than any IP address written out: a longer entry is not parsed at all. */
const MAX_ADDRESS = 64;

/**
 * With `trustProxy`, the right-most X-Forwarded-For entry is the client our proxy saw (entries to its left are
 * whatever the client claimed); anything there that is not an IP address is ignored for the socket's, so no header
 * can make up a key of its own (12 KB of text as a rate-limit key). Without it the header is ignored, so nobody can
 * pick their own rate-limit key.
 */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for');
    const last = forwarded?.slice(forwarded.lastIndexOf(',') + 1).trim();
    const address = last ? ipAddress(last) : null;
    if (address) return address;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    // app.request() in tests has no socket.
    return 'unknown';
  }
}

/** The address written the one way (an IPv4-mapped IPv6 one as IPv4), or null when `text` is none. */
function ipAddress(text: string): string | null {
  if (text.length > MAX_ADDRESS || !ipaddr.isValid(text)) return null;
  const parsed = ipaddr.process(text);
  return parsed.toString();
}

/**
 * The key rate limits and the click counter group a client by: an IPv4 address, or an IPv6 address's /64 — one home
 * or host is given a whole /64, so counting its single addresses would let one client be thousands.
 */
export function clientGroup(c: Context, trustProxy: boolean): string {
  return addressGroup(clientAddress(c, trustProxy));
}

export function addressGroup(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}
