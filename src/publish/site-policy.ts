// The Content-Security-Policy `digest serve` sends with every response: the published pages' own policy (no inline
// script; the one stylesheet allowed by its hash; images from the site and the configured logo) plus what only a
// header can say. The site's look (publish.identity's accent colour and logo) is part of both: the accent is a rule
// of the hashed stylesheet, the logo one exact image address.
import { createHash } from 'node:crypto';
import { SITE_CSS } from './_styles.js';

/** publish.identity's accent colour (#rrggbb, checked in the config) and logo (an https URL). */
export interface SiteLook {
  accentColor?: string | null | undefined;
  logoUrl?: string | null | undefined;
}

export function siteContentSecurityPolicy(look: SiteLook = {}): string {
  // Pages published before the look changed keep their style until the next publish rewrites them.
  const hashes = new Set([styleSourceHash(look), styleSourceHash()]);
  return [
    "default-src 'self'",
    // Item images are published with the site; data: is the inline favicon (an image: it cannot run script).
    `img-src ${imageSources(look)}`,
    "script-src 'self'",
    `style-src 'self' ${[...hashes].join(' ')}`,
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The site's stylesheet with the accent colour: links, buttons and borders in the light scheme. The dark scheme
 * keeps its own light link colour (an accent dark enough for a light page is too dark on a dark one), and print
 * keeps black.
 */
export function siteStyle(look: SiteLook = {}): string {
  if (!look.accentColor) return SITE_CSS;
  return `${SITE_CSS}\n@media screen and (prefers-color-scheme:light){:root{--link:${look.accentColor}}}`;
}

// The hash of each look's stylesheet: the pages' Content-Security-Policy and the server's allow exactly it.
const styleHashes = new Map<string, string>();

/** `'sha256-…'` of the stylesheet: the policy allows exactly this <style> element and nothing else inline. */
export function styleSourceHash(look: SiteLook = {}): string {
  const key = look.accentColor ?? '';
  let hash = styleHashes.get(key);
  if (!hash) {
    hash = `'sha256-${createHash('sha256').update(siteStyle(look)).digest('base64')}'`;
    styleHashes.set(key, hash);
  }
  return hash;
}

/** The img-src sources: the site's own images, the inline favicon, and exactly the logo's address when one is set. */
export function imageSources(look: SiteLook = {}): string {
  const logo = siteLogo(look);
  return logo ? `'self' data: ${logoSource(logo)}` : "'self' data:";
}

/** The logo's address, normalised, when it is an https URL (the config allows no other), else none. */
export function siteLogo(look: SiteLook | undefined): string | null {
  const logo = look?.logoUrl;
  const url = logo && URL.canParse(logo) ? new URL(logo) : null;
  return url?.protocol === 'https:' ? url.href : null;
}

/**
 * The logo as a CSP source that matches that one image: its origin and path, with every character a policy or an
 * HTML attribute could read as syntax percent-encoded (a policy decodes the path before it compares). The query
 * is left out: a policy never matches on it.
 */
function logoSource(logoUrl: string): string {
  const url = new URL(logoUrl);
  const path = url.pathname.replace(
    /[^A-Za-z0-9\-._~/%!$()*+=:@]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
  return `${url.origin}${path}`;
}
