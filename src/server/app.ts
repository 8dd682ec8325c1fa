// The HTTP app of `digest serve`: the published site, /healthz, /metrics; routes parse input and call the use cases.

import { Hono } from 'hono';
import type { Digest } from '../compose/index.js';
import { systemClock } from '../core/clock.js';
import type { Desk } from '../desk/index.js';
import { API_BASE, API_VERSION, type Archive } from '../reach/index.js';
import type { MailStatus } from '../subscribers/index.js';
import { createApiRoutes } from './api-routes.js';
import { clientAddress } from './client-address.js';
import { registerDeskRoutes } from './desk-routes.js';
import { sameSecret, urlTextGuard } from './guards.js';
import { createHealthProbe } from './health-probe.js';
import { createMcpRoute } from './mcp-route.js';
import { createDigestMetrics, type DigestMetrics, PROMETHEUS_CONTENT_TYPE } from './metrics.js';
import { type RequestVariables, requestLog } from './request-log.js';
import { securityHeaders } from './security-headers.js';
import { createSiteFiles, type SiteFiles } from './site-files.js';
import { createSiteHandler } from './site-routes.js';
import { subscriberRoutes } from './subscriber-routes.js';

export interface ServerDeps {
  /** The folder `digest publish` writes (front page, editions, archive, feeds, search). */
  siteDir: string;
  /** Resolves when the database answers; throws (or rejects) when it does not. */
  checkDatabase(): Promise<void>;
  metrics?: DigestMetrics;
  /** One JSON line per request and per server error (default: stdout). */
  log?: (line: string) => void;
  /** Trust X-Forwarded-For from a reverse proxy in front (config server.trustProxy). */
  trustProxy?: boolean;
  contentSecurityPolicy?: string;
  /** The file cache (tests pass their own to look inside). */
  siteFiles?: SiteFiles;
  /** Each published page passes through this once when read: `digest serve` fills the subscribe slot with it. */
  transformHtml?: (page: string) => string;
  /** The use cases behind the routes that take input (subscribe, unsubscribe…); without it only the site is served. */
  digest?: Digest;
  /** The published archive's use cases: with them, the JSON API (/api/v1) and the MCP server (/mcp) are served. */
  archive?: { archive: Archive; publicUrl?: string | undefined };
  /** The editor's desk use cases; when given, /admin serves the desk. */
  desk?: Desk;
  /** The outbox's state: /healthz says "degraded" (still 200) while mails wait for a retry or were given up. */
  mailStatus?: () => Promise<MailStatus>;
  /** The Bearer token /metrics asks for; without one, only loopback requests no proxy forwarded are answered. */
  metricsToken?: string | undefined;
  /** The public base URL is https: the desk's cookies are `Secure` whatever the request came in over. */
  secureCookies?: boolean;
  /** How long a /healthz result is reused (default 1 s; 0: every request probes). */
  healthFreshMs?: number;
  /** Requests per client address per minute on /api (default 120) and JSON-RPC messages on /mcp (default 60). */
  apiPerMinute?: number;
  mcpPerMinute?: number;
}

export type ServerEnv = { Variables: RequestVariables };

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/** The socket is on this machine and no proxy forwarded the request (a proxy here would make everyone local). */
function fromLoopback(c: Parameters<typeof clientAddress>[0]): boolean {
  if (c.req.header('x-forwarded-for') || c.req.header('forwarded')) return false;
  return LOOPBACK.test(clientAddress(c, false));
}

export function createServerApp(deps: ServerDeps): Hono<ServerEnv> {
  const metrics = deps.metrics ?? createDigestMetrics();
  const log = deps.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const files =
    deps.siteFiles ??
    createSiteFiles({
      root: deps.siteDir,
      ...(deps.transformHtml ? { transformHtml: deps.transformHtml } : {}),
    });
  const app = new Hono<ServerEnv>();

  app.use('*', requestLog({ metrics, log, trustProxy: deps.trustProxy ?? false }));
  app.use('*', securityHeaders(deps.contentSecurityPolicy));
  app.use('*', urlTextGuard());

  const health = createHealthProbe({
    checkDatabase: deps.checkDatabase,
    ...(deps.mailStatus ? { mailStatus: deps.mailStatus } : {}),
    ...(deps.healthFreshMs !== undefined ? { freshMs: deps.healthFreshMs } : {}),
  });
  app.get('/healthz', async (c) => {
    c.header('Cache-Control', 'no-store');
    const result = await health();
    if (result.database === 'unreachable') {
      log(
        JSON.stringify({
          time: systemClock.now().toISOString(),
          level: 'error',
          msg: 'health check failed',
          requestId: c.get('requestId'),
          error: result.error instanceof Error ? result.error.message : String(result.error),
        }),
      );
      // The reason stays in the log: a public health endpoint does not describe the database.
      return c.json({ status: 'error', database: 'unreachable' }, 503);
    }
    if (!result.mail) return c.json({ status: 'ok', database: 'ok' }, 200);
    // Mail failing is "degraded", not down: the site, the API and subscribing still work (requests are stored and
    // their mails wait in the outbox), so a load balancer should keep sending traffic — 200 either way.
    const { status, waiting, retrying } = result.mail;
    return c.json({ status, database: 'ok', mail: { status, waiting, retrying } }, 200);
  });

  // Counts of readers and mails are the operator's: a token, or a request from this machine that no proxy forwarded.
  app.get('/metrics', async (c) => {
    const given = /^Bearer (\S+)$/.exec(c.req.header('authorization') ?? '')?.[1];
    const allowed = deps.metricsToken
      ? sameSecret(given, deps.metricsToken) || fromLoopback(c)
      : fromLoopback(c);
    if (!allowed) {
      return c.json(
        {
          error: 'unauthorized',
          message: 'Metrics need the Bearer token (server.metricsTokenEnv) or loopback.',
        },
        401,
        { 'Cache-Control': 'no-store', 'WWW-Authenticate': 'Bearer realm="metrics"' },
      );
    }
    return c.body(await metrics.registry.render(), 200, {
      'Content-Type': PROMETHEUS_CONTENT_TYPE,
      'Cache-Control': 'no-store',
    });
  });

  const trustProxy = deps.trustProxy ?? false;
  const subscribers = deps.digest && subscriberRoutes({ digest: deps.digest, trustProxy });
  if (subscribers) app.route('/', subscribers);
  if (deps.archive) {
    const perMinute = { api: deps.apiPerMinute ?? 120, mcp: deps.mcpPerMinute ?? 60 };
    app.route(
      API_BASE,
      createApiRoutes({
        archive: deps.archive.archive,
        version: API_VERSION,
        perMinute: perMinute.api,
        trustProxy,
      }),
    );
    app.route(
      '/mcp',
      createMcpRoute({ ...deps.archive, version: API_VERSION, perMinute: perMinute.mcp, trustProxy }),
    );
  }

  if (deps.desk) {
    registerDeskRoutes(app, deps.desk, { trustProxy, secureCookies: deps.secureCookies ?? false });
  }
  const site = createSiteHandler({ files });
  app.on(['GET', 'HEAD'], '/*', site);
  app.all('/*', (c) => c.json({ error: 'method-not-allowed' }, 405, { Allow: 'GET, HEAD' }));

  app.onError((error, c) => {
    log(
      JSON.stringify({
        time: systemClock.now().toISOString(),
        level: 'error',
        msg: 'unhandled error',
        requestId: c.get('requestId'),
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      }),
    );
    return c.json({ error: 'internal', requestId: c.get('requestId') }, 500);
  });
  return app;
}
