// Publishing settings (issue 5): where the site lives, the feeds, and the email.
import { z } from 'zod';
import { isHttpUrl } from '../core/urls.js';

const httpUrl = z.string().url().refine(isHttpUrl, 'must be an http(s) URL');

export const DEFAULT_UNSUBSCRIBE_URL = 'https://example.com/unsubscribe?token={{unsubscribe_token}}';

export const smtpSchema = z
  .object({
    host: z.string().min(1),
    port: z.number().int().min(1).max(65_535).default(587),
    /** true: TLS from the first byte (port 465); false: STARTTLS. */
    secure: z.boolean().default(false),
    /** Refuse to send unencrypted when the server offers no STARTTLS. Turn off only for a local test server. */
    requireTls: z.boolean().default(true),
    user: z.string().min(1).optional(),
    /** Name of the environment variable holding the SMTP password (secrets never live in the config file). */
    passwordEnv: z.string().min(1).default('DIGEST_SMTP_PASSWORD'),
  })
  .strict();

export const emailSchema = z
  .object({
    from: z.string().min(3).default('LLM News Digest <digest@example.com>'),
    /** Recipients for `digest email --send` (usually a list address of your mailing tool). */
    to: z.array(z.string().min(3)).default([]),
    /** Placeholder your sending tool replaces per subscriber; sent as the List-Unsubscribe header. */
    unsubscribeUrl: httpUrl.default(DEFAULT_UNSUBSCRIBE_URL),
    smtp: smtpSchema.optional(),
  })
  .strict();

export const publishSchema = z
  .object({
    /** Absolute base URL of the published site, used for canonical links, feeds and the sitemap. */
    baseUrl: httpUrl.optional(),
    /** Newest editions kept in the RSS, Atom and JSON feeds (the archive page lists all). */
    feedLimit: z.number().int().min(1).max(1000).default(20),
    email: emailSchema.prefault({}),
  })
  .strict()
  .prefault({});

export type PublishConfig = z.infer<typeof publishSchema>;
export type EmailConfig = z.infer<typeof emailSchema>;
export type SmtpConfig = z.infer<typeof smtpSchema>;
