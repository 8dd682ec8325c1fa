// The Content-Security-Policy `digest serve` sends with every response: the published pages' own policy (no inline
// script; the one stylesheet allowed by its hash; images from the site) plus what only a header can say.
import { createHash } from 'node:crypto';
import { SITE_CSS } from './_styles.js';

export function siteContentSecurityPolicy(): string {
  return [
    "default-src 'self'",
    // Item images are published with the site; data: is the inline favicon (an image: it cannot run script).
    "img-src 'self' data:",
    "script-src 'self'",
    `style-src 'self' ${styleSourceHash()}`,
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

// The hash of the site's one stylesheet: the pages' Content-Security-Policy and the server's allow exactly it.
let styleHash: string | undefined;

/** `'sha256-…'` of the stylesheet: the policy allows exactly this <style> element and nothing else inline. */
export function styleSourceHash(): string {
  styleHash ??= `'sha256-${createHash('sha256').update(SITE_CSS).digest('base64')}'`;
  return styleHash;
}
