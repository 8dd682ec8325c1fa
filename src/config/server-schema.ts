// `digest serve` settings (issue 12): where it listens and the address readers reach it at.
import { z } from 'zod';
import { isHttpUrl } from '../core/urls.js';

export const DEFAULT_SERVER_HOST = '127.0.0.1';
export const DEFAULT_SERVER_PORT = 8080;

export const portSchema = z
  .number({ error: 'must be a whole number from 0 to 65535' })
  .int('must be a whole number from 0 to 65535')
  .min(0, 'must be a whole number from 0 to 65535')
  .max(65_535, 'must be a whole number from 0 to 65535');

export const serverSchema = z
  .object({
    /** Interface to listen on: 127.0.0.1 behind a reverse proxy, 0.0.0.0 in a container. */
    host: z.string().min(1).default(DEFAULT_SERVER_HOST),
    /** 0 picks a free port (tests). */
    port: portSchema.default(DEFAULT_SERVER_PORT),
    /** Public address readers reach the service at (links in mails, allowed Origin of POSTs). Default: publish.baseUrl. */
    baseUrl: z.string().url().refine(isHttpUrl, 'must be an http(s) URL').optional(),
    /** Behind a reverse proxy: take the client address from X-Forwarded-For (rate limits, logs). */
    trustProxy: z.boolean().default(false),
  })
  .strict()
  .prefault({});

export type ServerConfig = z.infer<typeof serverSchema>;
