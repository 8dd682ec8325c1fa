// Who is asking: the socket's address, or the proxy's X-Forwarded-For when the proxy is trusted.
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/**
 * With `trustProxy`, the right-most X-Forwarded-For entry is the client our proxy saw (entries to its left are
 * whatever the client claimed). Without it the header is ignored, so nobody can pick their own rate-limit key.
 */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    // app.request() in tests has no socket.
    return 'unknown';
  }
}
