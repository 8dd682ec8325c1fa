// The HTTP app of `digest serve`: the published site, /healthz, /metrics; routes parse input and call the use cases.

import { Hono } from 'hono';
import { API_BASE, API_VERSION, type Archive } from '../api/index.js';
import { systemClock } from '../core/clock.js';
import { memoryRateLimitStore, type RateLimitStore } from '../core/rate-limiter.js';
import type { Desk } from '../desk/index.js';
import type { MailStatus } from '../subscribers/index.js';
import { createApiRoutes } from './api-routes.js';
import { CLICK_ROUTES, type ClickRouteOptions, clickRoutes } from './click-routes.js';
import { registerDeskRoutes } from './desk-routes.js';
import { urlTextGuard } from './guards.js';
import { createHealthProbe } from './health-probe.js';
import { createMcpRoute } from './mcp-route.js';
import { createDigestMetrics, type DigestMetrics } from './metrics.js';
import { bearerCheck, operatorEndpoints } from './operator-access.js';
import type { StatsUseCase } from './operator-routes.js';
import { type RequestVariables, requestLog } from './request-log.js';
import { securityHeaders } from './security-headers.js';
import { createSiteFiles, type SiteFiles } from './site-file-cache.js';
import { createSiteHandler } from './site-routes.js';
import { type SubscriberUseCases, type SubscriptionSettings, subscriberRoutes } from './subscriber-routes.js';

/** The published site: the folder `digest publish` writes (front page, editions, archive, feeds, search). */
export interface ServerSite {
  dir: string;
  /** The file cache (tests pass their own to look inside). */
  files?: SiteFiles;
  /** Each published page passes through this once when read: `digest serve` fills the subscribe slot with it. */
  transformHtml?: (page: string) => string;
  contentSecurityPolicy?: string;
}

/** What /healthz reports. */
export interface ServerHealth {
  /** Resolves when the database answers; throws (or rejects) when it does not. */
  checkDatabase(): Promise<void>;
  /**
   * The outbox's state: /healthz says "degraded" (still 200) while mails wait for a retry or were given up. Only
   * that word is shown: a count of waiting mails moves with one subscribe of an unknown address (the per-mail
   * figures are on /metrics).
   */
  mailStatus?: () => Promise<MailStatus>;
  /** How long a /healthz result is reused (default 1 s; 0: every request probes). */
  freshMs?: number;
  /** Whether the last scheduled build failed or was stopped: "degraded" (still 200) until one works. */
  scheduleFailed?: () => boolean;
  /**
   * Instances on one PostgreSQL: the site generation this one serves (`site.generation` in /healthz, to compare
   * across instances), and whether catching up with a newer one fails ("degraded"); null on one instance.
   */
  site?: () => { generation: number | null; failing: boolean } | null;
}

/** The use cases behind the routes that take input; each one left out leaves its routes out. */
export interface ServerUseCases {
  /** Subscribe, confirm, unsubscribe, preferences, the bounce webhook (only with a public base URL). */
  subscribers?: {
    useCases: SubscriberUseCases;
    settings: SubscriptionSettings;
    languages: string[];
  };
  /** The published archive's use cases: with them, the JSON API (/api/v1) and the MCP server (/mcp) are served. */
  archive?: { archive: Archive; publicUrl?: string | undefined };
  /** The editor's desk use cases; when given, /admin serves the desk. */
  desk?: Desk;
  /** Counted links (analytics not "off"): /r/<token> redirects and counts. */
  clicks?: Pick<ClickRouteOptions, 'follow'>;
  /** What readers did with a published edition; when given, /operator/stats serves it (behind the /metrics check). */
  stats?: StatsUseCase;
}

export interface ServerSecurity {
  /** Trust X-Forwarded-For from a reverse proxy in front (config server.trustProxy). */
  trustProxy?: boolean;
  /** The public base URL is https: the desk's cookies are `Secure` whatever the request came in over. */
  secureCookies?: boolean;
  /**
   * The Bearer token /metrics and /operator/stats ask for on this listener; without one they answer nobody here
   * (the operator's own listener, server.metricsListen, answers them: operator-access.ts).
   */
  metricsToken?: string | undefined;
}

/** What the HTTP app is built from: use cases and settings, never the digest's ports. */
export interface ServerDeps {
  site: ServerSite;
  health: ServerHealth;
  useCases?: ServerUseCases;
  security?: ServerSecurity;
  /**
   * Requests per client address per minute on /api (default 120), JSON-RPC messages on /mcp (default 60) and changes
   * posted to the desk per session and per address (default 60); `now`
   * is the clock of every rate limit, in ms: the digest's, so they follow the same time as the tokens they guard (a
   * test's fixed one; default: the wall clock).
   */
  limits?: {
    apiPerMinute?: number;
    mcpPerMinute?: number;
    deskWritesPerMinute?: number;
    now?: () => number;
    /** Where every limit's buckets live: the database instances share (default: memory, on `now`). */
    store?: RateLimitStore;
  };
  metrics?: DigestMetrics;
  /** One JSON line per request and per server error (default: stdout). */
  log?: (line: string) => void;
}

export type ServerEnv = { Variables: RequestVariables };
export type ServerApp = Hono<ServerEnv>;

export function createServerApp(deps: ServerDeps): Hono<ServerEnv> {
  const metrics = deps.metrics ?? createDigestMetrics();
  const log = deps.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const security = deps.security ?? {};
  const trustProxy = security.trustProxy ?? false;
  const app = new Hono<ServerEnv>();

  app.use('*', requestLog({ metrics, log, trustProxy, quietRoutes: CLICK_ROUTES }));
  app.use('*', securityHeaders(deps.site.contentSecurityPolicy));
  app.use('*', urlTextGuard());
  healthRoute(app, deps.health, log);
  operatorEndpoints(app, {
    metrics,
    stats: deps.useCases?.stats,
    allowed: bearerCheck(security.metricsToken),
  });
  useCaseRoutes(app, deps.useCases ?? {}, {
    ...deps.limits,
    trustProxy,
    onBounce: () => metrics.mailsBounced.inc(),
    secureCookies: security.secureCookies,
  });
  siteRoutes(app, deps.site);

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

function healthRoute(app: Hono<ServerEnv>, options: ServerHealth, log: (line: string) => void): void {
  const health = createHealthProbe({
    checkDatabase: options.checkDatabase,
    ...(options.mailStatus ? { mailStatus: options.mailStatus } : {}),
    ...(options.freshMs !== undefined ? { freshMs: options.freshMs } : {}),
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
    // A failed build, like failing mail, is "degraded", not down: the site, the API and subscribing still work.
    const site = options.site?.() ?? null;
    const buildFailed = (options.scheduleFailed?.() ?? false) || (site?.failing ?? false);
    const served = site ? { site: { generation: site.generation } } : {};
    if (!result.mail)
      return c.json({ status: buildFailed ? 'degraded' : 'ok', database: 'ok', ...served }, 200);
    // Mail failing is "degraded", not down: the site, the API and subscribing still work (requests are stored and
    // their mails wait in the outbox), so a load balancer should keep sending traffic — 200 either way. No counts:
    // one subscribe of an unknown address queues one mail, so a count would tell a stranger who is subscribed.
    const mailStatus = result.mail.status;
    const status = buildFailed ? 'degraded' : mailStatus;
    return c.json({ status, database: 'ok', mail: { status: mailStatus }, ...served }, 200);
  });
}

function useCaseRoutes(
  app: Hono<ServerEnv>,
  useCases: ServerUseCases,
  options: {
    apiPerMinute?: number;
    mcpPerMinute?: number;
    deskWritesPerMinute?: number;
    now?: () => number;
    store?: RateLimitStore;
    trustProxy: boolean;
    secureCookies?: boolean | undefined;
    onBounce: () => void;
  },
): void {
  const { trustProxy, now, onBounce } = options;
  // One store for every route's limits, so two routes never keep two copies of a limit apart.
  const rateLimits = options.store ?? memoryRateLimitStore(now);
  if (useCases.subscribers) {
    app.route('/', subscriberRoutes({ ...useCases.subscribers, trustProxy, rateLimits, onBounce }));
  }
  if (useCases.clicks) app.route('/', clickRoutes({ follow: useCases.clicks.follow, trustProxy }));
  if (useCases.archive) {
    app.route(
      API_BASE,
      createApiRoutes({
        archive: useCases.archive.archive,
        version: API_VERSION,
        perMinute: options.apiPerMinute ?? 120,
        trustProxy,
        rateLimits,
      }),
    );
    app.route(
      '/mcp',
      createMcpRoute({
        ...useCases.archive,
        version: API_VERSION,
        perMinute: options.mcpPerMinute ?? 60,
        trustProxy,
        rateLimits,
      }),
    );
  }
  if (useCases.desk) {
    registerDeskRoutes(app, useCases.desk, {
      trustProxy,
      secureCookies: options.secureCookies ?? false,
      writesPerMinute: options.deskWritesPerMinute ?? 60,
      rateLimits,
    });
  }
}

function siteRoutes(app: Hono<ServerEnv>, site: ServerSite): void {
  const files =
    site.files ??
    createSiteFiles({
      root: site.dir,
      ...(site.transformHtml ? { transformHtml: site.transformHtml } : {}),
    });
  app.on(['GET', 'HEAD'], '/*', createSiteHandler({ files }));
  app.all('/*', (c) => c.json({ error: 'method-not-allowed' }, 405, { Allow: 'GET, HEAD' }));
}
