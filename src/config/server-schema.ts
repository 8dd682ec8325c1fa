// `digest serve` settings: where it listens and the address readers reach it at.
import { z } from 'zod';
import { httpUrl } from './schema-rules.js';

export const DEFAULT_SERVER_HOST = '127.0.0.1';
export const DEFAULT_SERVER_PORT = 8080;

export const portSchema = z
  .number({ error: 'must be a whole number from 0 to 65535' })
  .int('must be a whole number from 0 to 65535')
  .min(0, 'must be a whole number from 0 to 65535')
  .max(65_535, 'must be a whole number from 0 to 65535');

/** How `digest serve` delivers the mails requests cause (confirmations, welcomes): see subscribers/outbox-worker.ts. */
export const outboxSchema = z
  .object({
    /** Wait before the first retry of a mail that failed for now (4xx, no connection); doubled each time after. */
    retryDelayMs: z.number().int().min(10).max(3_600_000).default(30_000),
    /** The longest wait between two attempts. */
    maxRetryDelayMs: z.number().int().min(10).max(86_400_000).default(3_600_000),
    /** Attempts before a mail that keeps failing for now is given up (with its last error as the reason). */
    maxAttempts: z.number().int().min(1).max(100).default(15),
    /** How often the worker looks for due mails besides being woken by a request. */
    pollMs: z.number().int().min(10).max(600_000).default(5_000),
    /** A mail left "sending" this long by a worker that stopped is taken over (or marked uncertain after its dot). */
    leaseSeconds: z.number().int().min(1).max(86_400).default(300),
    /**
     * Mails started per second at most, so an import of thousands of addresses trickles out at the provider's pace.
     * Unset: publish.email.send.messagesPerSecond (the same SMTP provider's limit).
     */
    messagesPerSecond: z.number().min(0.1).max(10_000).optional(),
  })
  .strict()
  .prefault({});

export const serverSchema = z
  .object({
    /** Interface to listen on: 127.0.0.1 behind a reverse proxy, 0.0.0.0 in a container. */
    host: z.string().min(1).default(DEFAULT_SERVER_HOST),
    /** 0 picks a free port (tests). */
    port: portSchema.default(DEFAULT_SERVER_PORT),
    /** Public address readers reach the service at (links in mails, allowed Origin of POSTs). Default: publish.baseUrl. */
    baseUrl: httpUrl.optional(),
    /** Behind a reverse proxy: take the client address from X-Forwarded-For (rate limits, logs). */
    trustProxy: z.boolean().default(false),
    /**
     * The subscribe form on published pages. Unset: every page `digest serve` serves carries it once subscribing
     * works (a base URL and publish.email.smtp), and a static copy of the site shows none (a static host cannot take
     * the POST). false hides it; true writes it into the published files themselves.
     */
    subscribeForm: z.boolean().optional(),
    /** Subscribe requests one client address may make per minute (429 with Retry-After beyond). */
    subscribePerMinute: z.number().int().min(1).max(100_000).default(10),
    /** Mail a short welcome (with the reader's unsubscribe link) once an address is confirmed. */
    welcomeMail: z.boolean().default(false),
    /** Environment variable holding the shared secret of POST /webhooks/bounce (Authorization: Bearer …). */
    webhookSecretEnv: z
      .string()
      .regex(/^[A-Z_][A-Z0-9_]*$/, 'must be an environment variable name (A-Z, 0-9, _)')
      .default('DIGEST_WEBHOOK_SECRET'),
    /** Temporary bounces reported by the webhook before an address counts as bounced. */
    softBounceLimit: z.number().int().min(1).max(100).default(3),
    /** Requests one client address may make to /api per minute, and JSON-RPC messages to /mcp (429 beyond). */
    apiPerMinute: z.number().int().min(1).max(1_000_000).default(120),
    mcpPerMinute: z.number().int().min(1).max(1_000_000).default(60),
    /**
     * Changes one desk session, and one client address, may post to /admin per minute (pin, skip, edit, approve…;
     * 429 with a page saying when to retry beyond). Sign-in attempts have their own, stricter limit.
     */
    deskWritesPerMinute: z.number().int().min(1).max(100_000).default(60),
    /**
     * Environment variable holding the token /metrics and /operator/stats ask for on the public listener
     * (Authorization: Bearer …). Without it they answer there to nobody: use metricsListen.
     */
    metricsTokenEnv: z
      .string()
      .regex(/^[A-Z_][A-Z0-9_]*$/, 'must be an environment variable name (A-Z, 0-9, _)')
      .default('DIGEST_METRICS_TOKEN'),
    /**
     * A loopback address and port of the operator's own (e.g. "127.0.0.1:9464", port 0: any free one) where /metrics
     * and /operator/stats answer without a token; nothing else is served there. Off by default.
     */
    metricsListen: z
      .string()
      .regex(
        /^(?:127\.0\.0\.1|\[::1\]|localhost):\d{1,5}$/,
        'must be a loopback address and port, e.g. "127.0.0.1:9464"',
      )
      .refine((value) => Number(value.slice(value.lastIndexOf(':') + 1)) <= 65_535, 'port above 65535')
      .optional(),
    outbox: outboxSchema,
  })
  .strict()
  .prefault({});

export type ServerConfig = z.infer<typeof serverSchema>;
export type OutboxConfig = z.infer<typeof outboxSchema>;
