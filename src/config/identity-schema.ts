// Who sends the digest: the name readers see (titles, the From display name, feeds), the postal address and footer
// every mail carries (CAN-SPAM asks for a valid postal address in each commercial mail), the Reply-To of every mail,
// and the look (accent colour, logo). Each field is checked here so a mail header or a page can carry it as is: one
// line without control characters for header values, a #rrggbb colour dark enough for link text on the mail's backgrounds, an https
// logo URL.
import { z } from 'zod';
import { isHeaderSafe, normaliseAddress } from '../core/email-address.js';

/** WCAG 2 AA for normal text: the accent colour is used for link text and as a button behind white text. */
export const MIN_ACCENT_CONTRAST = 4.5;

/** The darkest light background the accent sits on: the mail's page colour around its cards (email-html.ts). */
const LIGHTEST_DARK_BACKGROUND = '#f1f1ee';

function luminance(hex: string): number {
  const channel = (index: number) => {
    const value = Number.parseInt(hex.slice(1 + index * 2, 3 + index * 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

/** The WCAG contrast ratio of a #rrggbb colour against the backgrounds it is shown on (the lowest of them). */
export function accentContrast(hex: string): number {
  return (luminance(LIGHTEST_DARK_BACKGROUND) + 0.05) / (luminance(hex) + 0.05);
}

const oneLine = (max: number) =>
  z.string().trim().min(1).max(max).refine(isHeaderSafe, 'must be one line without control characters');

export const identitySchema = z
  .object({
    /** The digest's name as readers see it; replaces `name` in titles, feeds and the From display name. */
    name: oneLine(100).optional(),
    /** The sender's postal address, printed in every mail and on the subscribe page (lines separated by ", "). */
    postalAddress: z.string().trim().min(5).max(300).optional(),
    /** Where readers' replies go: the Reply-To header of every mail. */
    replyTo: oneLine(254)
      .refine((value) => normaliseAddress(value).ok, 'must be an e-mail address like editor@example.org')
      .optional(),
    /** A short text under every mail and on the subscribe page (plain text; escaped). */
    footer: z.string().trim().min(1).max(500).optional(),
    /** Links and buttons in the mails: a #rrggbb colour with at least 4.5:1 contrast on their lightest backgrounds. */
    accentColor: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, 'must be a hex colour like #1f5fa8')
      .superRefine((hex, context) => {
        const ratio = accentContrast(hex);
        if (ratio < MIN_ACCENT_CONTRAST)
          context.addIssue({
            code: 'custom',
            message: `contrast ${ratio.toFixed(2)}:1 on the mail's background (${LIGHTEST_DARK_BACKGROUND}) is too low for link text: choose a darker colour (at least ${MIN_ACCENT_CONTRAST}:1)`,
          });
      })
      .optional(),
    /** The logo shown above the site's pages and the mail: an https URL of an image. */
    logoUrl: z
      .string()
      .url()
      .max(2000)
      .refine((url) => url.startsWith('https://'), 'must be an https URL')
      .optional(),
  })
  .strict()
  .prefault({});

export type IdentityConfig = z.infer<typeof identitySchema>;
