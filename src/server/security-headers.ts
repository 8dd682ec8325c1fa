// Headers on every response, errors and 404s included.
import type { MiddlewareHandler } from 'hono';

/**
 * No inline script or style runs: everything comes from the site's own files. `frame-ancestors 'none'` replaces
 * X-Frame-Options; `form-action 'self'` keeps the subscribe form posting here only.
 */
export const DEFAULT_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "img-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function securityHeaders(contentSecurityPolicy = DEFAULT_CONTENT_SECURITY_POLICY): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const headers = c.res.headers;
    // A route may answer with a stricter policy of its own (the sandboxed email preview); every other answer gets this.
    if (!headers.has('Content-Security-Policy'))
      headers.set('Content-Security-Policy', contentSecurityPolicy);
    headers.set('X-Content-Type-Options', 'nosniff');
    headers.set('X-Frame-Options', 'DENY');
    // A route's stricter one stays too (/r/ answers no-referrer: the item's site learns nothing of the link).
    if (!headers.has('Referrer-Policy')) headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
    headers.set('Cross-Origin-Opener-Policy', 'same-origin');
    headers.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), interest-cohort=()');
  };
}
