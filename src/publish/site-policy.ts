// The Content-Security-Policy `digest serve` sends with every response: the published pages' own policy (no inline
// script; the one stylesheet allowed by its hash; images from the site) plus what only a header can say.
import { styleSourceHash } from './style-hash.js';

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
