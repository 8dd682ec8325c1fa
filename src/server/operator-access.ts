// /metrics and /operator/stats: the operator's counts. On the public listener they answer only the Bearer token of
// server.metricsTokenEnv (compared in constant time); on the operator's own listener (server.metricsListen, a
// loopback address and port) they answer without one. Never by the peer's address alone: a proxy on this host that
// forwards without headers makes every reader "local".
import { type Context, type Env, Hono } from 'hono';
import { sameSecret } from './guards.js';
import { type DigestMetrics, PROMETHEUS_CONTENT_TYPE } from './metrics.js';
import { operatorRoutes, type StatsUseCase } from './operator-routes.js';

export type OperatorCheck = (c: Context) => boolean;

/** The public listener's check: the token, or nobody (without a token the counts are on metricsListen only). */
export function bearerCheck(token: string | undefined): OperatorCheck {
  return (c) => {
    if (!token) return false;
    const given = /^Bearer (\S+)$/.exec(c.req.header('authorization') ?? '')?.[1];
    return sameSecret(given, token);
  };
}

const REFUSED =
  'needs the Bearer token of server.metricsTokenEnv, or the operator listener (server.metricsListen).';

/** /metrics and, with `stats`, /operator/stats on `app`, each behind `allowed`. */
export function operatorEndpoints<E extends Env>(
  app: Hono<E>,
  options: { metrics: DigestMetrics; stats?: StatsUseCase | undefined; allowed: OperatorCheck },
): void {
  const { metrics, allowed } = options;
  app.get('/metrics', async (c) => {
    if (!allowed(c)) {
      return c.json({ error: 'unauthorized', message: `Metrics ${REFUSED}` }, 401, {
        'Cache-Control': 'no-store',
        'WWW-Authenticate': 'Bearer realm="metrics"',
      });
    }
    return c.body(await metrics.registry.render(), 200, {
      'Content-Type': PROMETHEUS_CONTENT_TYPE,
      'Cache-Control': 'no-store',
    });
  });
  if (options.stats) app.route('/operator', operatorRoutes({ stats: options.stats, allowed }));
}

/** The operator listener's app: the two endpoints, nothing else, no token (it listens on loopback only). */
export function createOperatorApp(options: {
  metrics: DigestMetrics;
  stats?: StatsUseCase | undefined;
}): Hono {
  const app = new Hono();
  operatorEndpoints(app, { ...options, allowed: () => true });
  app.all('*', (c) => c.json({ error: 'not-found' }, 404));
  return app;
}
