// Counted links: whether item links in mails (and, with `site`, on the site's pages) go through the
// service's /r/ redirect that counts them, and whether a count may name the reader.
import { z } from 'zod';

export const ANALYTICS_MODES = ['off', 'aggregate', 'per-reader'] as const;
export type AnalyticsMode = (typeof ANALYTICS_MODES)[number];

const modeSchema = z.enum(ANALYTICS_MODES, { error: 'must be "off", "aggregate" or "per-reader"' });

export const analyticsSchema = z
  .preprocess(
    // `"analytics": "aggregate"` is short for `{ "mode": "aggregate" }`.
    (value) => (typeof value === 'string' ? { mode: value } : value),
    z
      .object({
        /** Unset: "aggregate" when the service mails (a base URL and publish.email.smtp), else "off". */
        mode: modeSchema.optional(),
        /** The site's pages link their items through /r/ too (counted as channel "site"). */
        site: z.boolean().default(false),
        /** Counted fetches of /r/ one client address may make per minute; beyond, it is redirected, not counted. */
        perMinute: z.number().int().min(1).max(10_000).default(30),
      })
      .strict(),
  )
  .prefault({});

export type AnalyticsConfig = z.infer<typeof analyticsSchema>;

/** analytics.site in force: the edition pages' links count clicks too (never with the mode off). */
export function siteClicksCounted(config: Parameters<typeof analyticsMode>[0]): boolean {
  return config.analytics.site === true && analyticsMode(config) !== 'off';
}

/** The mode in force: the configured one, else "aggregate" when the service mails, else "off". */
export function analyticsMode(config: {
  analytics: AnalyticsConfig;
  server: { baseUrl?: string | undefined };
  publish: { baseUrl?: string | undefined; email: { smtp?: unknown } };
}): AnalyticsMode {
  if (config.analytics.mode) return config.analytics.mode;
  const mails =
    (config.server.baseUrl ?? config.publish.baseUrl) !== undefined && !!config.publish.email.smtp;
  return mails ? 'aggregate' : 'off';
}
