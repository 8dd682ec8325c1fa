// The hash of the site's one stylesheet: the pages' Content-Security-Policy and the server's allow exactly it.
import { createHash } from 'node:crypto';
import { SITE_CSS } from './_styles.js';

let styleHash: string | undefined;

/** `'sha256-…'` of the stylesheet: the policy allows exactly this <style> element and nothing else inline. */
export function styleSourceHash(): string {
  styleHash ??= `'sha256-${createHash('sha256').update(SITE_CSS).digest('base64')}'`;
  return styleHash;
}
