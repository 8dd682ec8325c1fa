// Publishing settings: where the site lives, the feeds, and the email.
import { z } from 'zod';
import { identitySchema } from './identity-schema.js';
import { httpUrl } from './schema-rules.js';

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

/** DKIM signing of every mail `digest send` sends (the List-Unsubscribe headers are signed too). */
export const dkimSchema = z
  .object({
    /** The d= domain: the domain of the From address (DMARC alignment). */
    domainName: z.string().min(3),
    /** The s= selector: the DNS record is <keySelector>._domainkey.<domainName>. */
    keySelector: z.string().regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, "-" and "_"'),
    /** Name of the environment variable holding the PEM private key (never the key itself). */
    privateKeyEnv: z.string().min(1).default('DIGEST_DKIM_PRIVATE_KEY'),
  })
  .strict();

/** How `digest send` delivers an edition to the confirmed subscribers. */
export const sendSchema = z
  .object({
    /** SMTP transactions in flight at once (one pooled connection each). */
    concurrency: z.number().int().min(1).max(100).default(4),
    /** Upper bound on mails started per second, whatever the concurrency (your provider's limit). */
    messagesPerSecond: z.number().min(0.1).max(10_000).default(20),
    /** Permanent failures (5xx) after which an address is marked bounced. */
    bounceLimit: z.number().int().min(1).max(100).default(3),
    /** Attempts of a mail that fails temporarily (4xx, connection refused, timeout) before it counts as failed. */
    maxAttempts: z.number().int().min(1).max(20).default(5),
    /** Wait before the first retry; doubled for each later one (exponential backoff). */
    retryDelayMs: z.number().int().min(1).max(3_600_000).default(60_000),
    /** SMTP connection, greeting and socket timeout. */
    timeoutMs: z.number().int().min(100).max(600_000).default(60_000),
    /**
     * A row left "sending" by a process that stopped answering for this long (or that is gone) is "uncertain":
     * the mail may have been delivered. Longer than any SMTP transaction can take.
     */
    leaseSeconds: z.number().int().min(1).max(86_400).default(600),
    /** A mailbox that unsubscribes whoever writes to it: the mailto half of List-Unsubscribe (optional). */
    unsubscribeMailto: z.string().min(3).optional(),
  })
  .strict()
  .prefault({});

export const emailSchema = z
  .object({
    from: z.string().min(3).default('LLM News Digest <digest@example.com>'),
    /** Recipients for `digest email --send` (usually a list address of your mailing tool). */
    to: z.array(z.string().min(3)).default([]),
    /** Placeholder your sending tool replaces per subscriber; sent as the List-Unsubscribe header. */
    unsubscribeUrl: httpUrl.default(DEFAULT_UNSUBSCRIBE_URL),
    smtp: smtpSchema.optional(),
    dkim: dkimSchema.optional(),
    send: sendSchema,
  })
  .strict();

export const publishSchema = z
  .object({
    /** Absolute base URL of the published site, used for canonical links, feeds and the sitemap. */
    baseUrl: httpUrl.optional(),
    /** Newest editions kept in the RSS, Atom and JSON feeds (the archive page lists all). */
    feedLimit: z.number().int().min(1).max(1000).default(20),
    email: emailSchema.prefault({}),
    /** Who sends it: name, postal address, footer, Reply-To, accent colour, logo (identity-schema.ts). */
    identity: identitySchema,
  })
  .strict()
  .prefault({});

export type EmailConfig = z.infer<typeof emailSchema>;
export type SmtpConfig = z.infer<typeof smtpSchema>;
export type SendConfig = z.infer<typeof sendSchema>;
