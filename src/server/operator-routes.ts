// The operator's JSON: what readers did with a published edition (GET /operator/stats[?week=D]), behind the same
// check as /metrics — the Bearer token of server.metricsTokenEnv, or a request from this machine no proxy
// forwarded. Counts only: no reader is named (docs/stats.md).
import { type Context, Hono } from 'hono';
import { isIsoDay } from '../core/dates.js';
import { NotReadyError } from '../core/errors.js';
import type { EditionStats } from '../editions/index.js';

export type StatsUseCase = (input: { week?: string | undefined }) => Promise<EditionStats>;

export function operatorRoutes(options: {
  stats: StatsUseCase;
  /** True when the request may read the operator's counts (the /metrics check). */
  allowed: (c: Context) => boolean;
}): Hono {
  const app = new Hono();
  app.get('/stats', async (c) => {
    c.header('Cache-Control', 'no-store');
    if (!options.allowed(c)) {
      return c.json(
        {
          error: 'unauthorized',
          message: 'The operator API needs the Bearer token (server.metricsTokenEnv) or loopback.',
        },
        401,
        { 'WWW-Authenticate': 'Bearer realm="operator"' },
      );
    }
    const week = c.req.query('week');
    if (week !== undefined && !isIsoDay(week))
      return c.json({ error: 'bad-request', field: 'week', message: 'expected a date like 2026-05-04' }, 400);
    try {
      return c.json(await options.stats({ week }));
    } catch (error) {
      if (error instanceof NotReadyError) return c.json({ error: 'not-found', message: error.message }, 404);
      throw error;
    }
  });
  return app;
}
