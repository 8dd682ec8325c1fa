// The email's frames are compiled from its MJML template ahead of time (scripts/compile-email.mjs), so MJML stays a
// tool of the repository: the committed frames are what the template compiles to today, and the email built from them
// fills every slot.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emailFramesModule } from '../../scripts/compile-email.mjs';
import { EMAIL_IMAGE_WIDTH, renderEmailHtml } from '../../src/publish/email-html.js';
import { referenceEdition } from '../support/reference-edition.js';
import { publishedImages } from './_images.js';

const FRAMES = join(import.meta.dirname, '..', '..', 'src', 'publish', '_email-frames.ts');

describe('the email frames', () => {
  it('are what the MJML template compiles to (run `npm run email:compile` after changing it)', async () => {
    expect(readFileSync(FRAMES, 'utf8')).toBe(await emailFramesModule());
  });

  it('leave no slot unfilled, and images at the width the template gives them', async () => {
    const edition = referenceEdition();
    const email = await renderEmailHtml(edition, {
      siteUrl: 'https://digest.example.org/',
      images: publishedImages([edition]),
      note: 'Nothing on your topics this week.',
      alsoInEdition: [{ title: 'Also this', url: 'https://digest.example.org/2026-05-04/#also' }],
      preferencesUrl: 'https://digest.example.org/preferences?token=t',
    });
    expect(email).not.toMatch(/@@[A-Z]+@@/);
    expect(email).toContain('Nothing on your topics this week.');
    expect(email).toContain('>Also this</a>');
    expect(email).toMatch(new RegExp(`<img[^>]+width="${EMAIL_IMAGE_WIDTH}"`));
    // Outlook's conditionals joined where sections meet, as MJML joins them.
    expect(email).not.toMatch(/<!\[endif]-->\s*<!--\[if mso \| IE]>/);
  });
});
